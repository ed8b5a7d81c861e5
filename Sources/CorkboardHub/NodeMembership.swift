import CorkboardModel
import CorkboardWire
import Foundation

/// Who is on a board on one node, as the other nodes sharing the store hear of it (through
/// the store's presence channel, never stored), so that every node's members see everyone
/// (docs/architecture.md, "Several nodes").
///
/// A node tells its changes once a membership tick (joins, then leaves), and its whole list
/// when asked (`reset`: it replaces what the receiver had of that node). A room asks every
/// node for its list when it loads (its own list, empty then, goes with the question) and
/// after the store reconnected; it asks one node when it hears a change from a node whose
/// list it never had. The store delivers one node's messages in the order it sent them, so
/// a list followed by changes is the node's state; a list too long for one notification is
/// split, and the receiver replaces the node's list when the last part (`more` false) came.
struct NodeMembership: Codable, Sendable, Hashable {
    enum Kind: String, Codable, Sendable {
        case members
    }

    var kind = Kind.members
    var node: String
    var board: String
    /// The first part of the node's whole list.
    var reset = false
    /// More parts of the list follow.
    var more = false
    /// Nodes that receive it answer with their own list: all (`to` nil) or the one named.
    var ask = false
    var to: String?
    var joined: [PeerName] = []
    var left: [ClientID] = []

    /// A list split into parts that each fit one notification (`NodePresence.maximumPayloadBytes`).
    static func list(
        node: String, board: String, peers: [PeerName], asking: Bool, to: String? = nil
    ) -> [NodeMembership] {
        var parts = split(peers.map(shortened)).map { NodeMembership(node: node, board: board, more: true, joined: $0) }
        if parts.isEmpty { parts = [NodeMembership(node: node, board: board)] }
        parts[0].reset = true
        parts[0].ask = asking
        parts[0].to = to
        parts[parts.count - 1].more = false
        return parts
    }

    /// Changes split into parts that each fit one notification: joins first, then leaves.
    static func changes(node: String, board: String, joined: [PeerName], left: [ClientID]) -> [NodeMembership] {
        let joins = split(joined.map(shortened)).map { NodeMembership(node: node, board: board, joined: $0) }
        let leaves = split(left).map { NodeMembership(node: node, board: board, left: $0) }
        return joins + leaves
    }

    /// Names up to `maximumNameBytes` (a notification is under 8,000 bytes): on other nodes, a
    /// longer name is shown cut, with an ellipsis. Names are held to `Limits.maximumNameBytes`
    /// (256) at `hello` now, so only a node of an older version sends one that long.
    static let maximumNameBytes = 1_024

    private static func shortened(_ peer: PeerName) -> PeerName {
        guard peer.name.utf8.count > maximumNameBytes else { return peer }
        // Whole characters, with room for the ellipsis's three bytes.
        var (end, bytes) = (peer.name.startIndex, 0)
        for index in peer.name.indices {
            bytes += peer.name[index].utf8.count
            guard bytes <= maximumNameBytes - 3 else { break }
            end = peer.name.index(after: index)
        }
        return PeerName(client: peer.client, name: peer.name[..<end] + "…", hue: peer.hue)
    }

    /// Consecutive runs of `values` whose JSON stays well under the notification limit.
    private static func split<Value: Encodable>(_ values: [Value]) -> [[Value]] {
        let budget = NodePresence.maximumPayloadBytes - 400
        var runs: [[Value]] = []
        var run: [Value] = []
        var bytes = 0
        for value in values {
            let size = json(value).utf8.count + 1
            if !run.isEmpty && bytes + size > budget {
                runs.append(run)
                (run, bytes) = ([], 0)
            }
            run.append(value)
            bytes += size
        }
        if !run.isEmpty { runs.append(run) }
        return runs
    }

    func encoded() -> String { Self.json(self) }

    private static func json<Value: Encodable>(_ value: Value) -> String {
        // Plain strings and numbers: encoding cannot fail.
        String(decoding: (try? JSONEncoder().encode(value)) ?? Data(), as: UTF8.self)
    }

    static func decode(_ payload: String) -> NodeMembership? {
        try? JSONDecoder().decode(NodeMembership.self, from: Data(payload.utf8))
    }
}
