import CorkboardModel
import CorkboardWire
import Foundation

/// A drag of a member on one node, as the other nodes sharing the store hear of it (through
/// the store's presence channel, never stored): what that node broadcast to its own members,
/// once, after its own pacing (at most 20 a second per drag).
///
/// `drag` is the start, with its items when they fit in one notification (PostgreSQL's
/// NOTIFY takes less than 8,000 bytes) and without them otherwise; `over` is a placeholder
/// move, with the holder's name so that a node that missed the start can still show the
/// drag: either way the receiving node reads the items from the store's leases, once. A drag
/// of columns carries its `collections` in its start instead, under the same rule (its columns
/// are leased in the store too, apart from items).
///
/// `seq` is the origin room's durable seq when it was sent: a node applies the message only
/// once its room has caught up that far, so a drop's `drag.cleared` never overtakes the
/// `committed` event it follows (docs/protocol.md#6-presence-drag-state), although the two
/// travel on different channels.
struct NodePresence: Codable, Sendable, Hashable {
    enum Kind: String, Codable, Sendable {
        case drag
        case over
        case cleared
    }

    /// Below PostgreSQL's NOTIFY payload limit (8,000 bytes), with room to spare.
    static let maximumPayloadBytes = 7_500

    var node: String
    var board: String
    var seq: Int
    var kind: Kind
    var client: ClientID
    var name: String?
    var items: [ItemID]?
    /// The columns of a drag of columns (then `items` is nil).
    var collections: [CollectionID]?
    var over: DragTarget?
    var reason: DragClearReason?

    static func drag(node: String, board: String, seq: Int, _ update: DragUpdate) -> NodePresence {
        NodePresence(
            node: node, board: board, seq: seq, kind: .drag, client: update.client, name: update.name,
            items: update.collections == nil ? update.items : nil, collections: update.collections, over: update.over)
    }

    static func over(node: String, board: String, seq: Int, client: ClientID, name: String, _ over: DragTarget) -> NodePresence {
        NodePresence(node: node, board: board, seq: seq, kind: .over, client: client, name: name, over: over)
    }

    static func cleared(node: String, board: String, seq: Int, client: ClientID, reason: DragClearReason) -> NodePresence {
        NodePresence(node: node, board: board, seq: seq, kind: .cleared, client: client, reason: reason)
    }

    /// The JSON to publish: a start whose items (or columns) would not fit goes without them,
    /// and the receiving nodes read them from the store's leases.
    func encoded() -> String {
        let whole = Self.json(self)
        guard whole.utf8.count > Self.maximumPayloadBytes, items != nil || collections != nil else { return whole }
        var short = self
        short.items = nil
        short.collections = nil
        return Self.json(short)
    }

    private static func json(_ presence: NodePresence) -> String {
        // Plain strings and numbers: encoding cannot fail.
        String(decoding: (try? JSONEncoder().encode(presence)) ?? Data(), as: UTF8.self)
    }

    static func decode(_ payload: String) -> NodePresence? {
        try? JSONDecoder().decode(NodePresence.self, from: Data(payload.utf8))
    }
}
