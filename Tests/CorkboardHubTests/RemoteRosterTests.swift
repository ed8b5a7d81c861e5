import CorkboardModel
import CorkboardWire
import Foundation
import Testing

@testable import CorkboardHub

/// How a room follows the peers of other nodes from their membership messages, and how those
/// messages are cut to fit a notification (no store, no socket).
@Suite struct RemoteRosterTests {
    private var order = 0
    private var roster = RemoteRoster()

    private mutating func apply(_ message: NodeMembership) -> RemoteRoster.Changes {
        var order = self.order
        defer { self.order = order }
        return roster.apply(message) {
            order += 1
            return order
        }
    }

    private static func peers(_ names: String...) -> [PeerName] {
        names.map { PeerName(client: "c-\($0)", name: $0) }
    }

    @Test mutating func aListInPartsReplacesTheNodesPeersWhenTheLastPartCame() {
        _ = apply(NodeMembership(node: "n1", board: "b", reset: true, joined: Self.peers("ada", "bob")))
        let parts = NodeMembership.list(node: "n1", board: "b", peers: Self.peers("bob", "cy"), asking: false)
        var joined: [ClientID] = []
        var left: [ClientID] = []
        for (index, part) in Self.cut(parts).enumerated() {
            let changes = apply(part)
            joined += changes.joined.map(\.client)
            left += changes.left.map(\.client)
            #expect((changes.listedNode != nil) == (index == Self.cut(parts).count - 1), "listed at the last part only")
        }
        #expect(joined == ["c-cy"], "a peer already known is not told again")
        #expect(left == ["c-ada"], "whoever is not on the new list left")
        #expect(Set(roster.peers.keys) == ["c-bob", "c-cy"])
    }

    @Test mutating func changesFromANodeWhoseListNeverCameAskForItOnce() {
        let first = apply(NodeMembership(node: "n2", board: "b", joined: Self.peers("ada")))
        #expect(first.askNode == "n2" && first.joined.map(\.name) == ["ada"])
        let second = apply(NodeMembership(node: "n2", board: "b", left: ["c-ada"]))
        #expect(second.askNode == nil, "asked once until it answers")
        #expect(second.left.map(\.client) == ["c-ada"])
        let answer = apply(NodeMembership(node: "n2", board: "b", reset: true))
        #expect(answer.listedNode == "n2" && answer.askNode == nil)
        #expect(apply(NodeMembership(node: "n2", board: "b", joined: Self.peers("bob"))).askNode == nil)
    }

    @Test mutating func aNodeGoneTakesItsPeersOnly() {
        _ = apply(NodeMembership(node: "n1", board: "b", reset: true, joined: Self.peers("ada", "bob")))
        _ = apply(NodeMembership(node: "n2", board: "b", reset: true, joined: Self.peers("cy")))
        #expect(roster.nodeGone("n1").map(\.name) == ["ada", "bob"], "in join order")
        #expect(Set(roster.peers.keys) == ["c-cy"])
        #expect(apply(NodeMembership(node: "n1", board: "b", joined: Self.peers("dee"))).askNode == "n1", "a node back is asked again")
    }

    @Test func partsFitANotificationAndKeepEveryPeerInOrder() throws {
        let long = (1...40).map { PeerName(client: "c\($0)", name: String(repeating: "é", count: 600)) }
        let parts = NodeMembership.list(node: "n", board: "b", peers: long, asking: true, to: "m")
        #expect(parts.count > 1)
        #expect(parts.allSatisfy { $0.encoded().utf8.count <= NodePresence.maximumPayloadBytes })
        #expect(parts.flatMap(\.joined).map(\.client) == long.map(\.client))
        #expect(parts.first?.reset == true && parts.first?.ask == true && parts.first?.to == "m")
        #expect(parts.dropFirst().allSatisfy { !$0.reset && !$0.ask } && parts.last?.more == false)
        #expect(parts.dropLast().allSatisfy { $0.more })
        // A name of 16 KiB is cut, on a character, for the other nodes.
        let huge = PeerName(client: "c1", name: String(repeating: "ü", count: 8_000))
        let cut = try #require(NodeMembership.changes(node: "n", board: "b", joined: [huge], left: []).first?.joined.first)
        #expect(cut.name.utf8.count <= NodeMembership.maximumNameBytes && cut.name.hasSuffix("…"))
        #expect(NodeMembership.decode(parts[0].encoded()) == parts[0])
        #expect(NodeMembership.decode(#"{"kind":"drag","node":"n","board":"b"}"#) == nil, "drag presence is not membership")
    }

    /// A list cut into parts of one peer each, as a long list would be.
    /// docs/protocol.md#colours, across nodes: a member's hue travels beside its name (only
    /// when it chose one) and the receiving room lists it with it.
    @Test mutating func aHueTravelsBesideTheNameOnlyWhenChosen() throws {
        let peers = [PeerName(client: "c-ada", name: "ada", hue: 210), PeerName(client: "c-bob", name: "bob")]
        let encoded = try #require(NodeMembership.list(node: "n1", board: "b", peers: peers, asking: false).first).encoded()
        #expect(encoded.contains(#""hue":210"#))
        #expect(encoded.components(separatedBy: #""hue""#).count == 2, "bob chose none: no key")
        let message = try #require(NodeMembership.decode(encoded))
        let changes = apply(message)
        #expect(changes.joined.map(\.hue) == [210, nil])
        #expect(roster.peers["c-ada"]?.hue == 210)
    }

    private static func cut(_ parts: [NodeMembership]) -> [NodeMembership] {
        let whole = parts.flatMap(\.joined)
        return whole.indices.map { index in
            NodeMembership(
                node: parts[0].node, board: parts[0].board, reset: index == 0, more: index < whole.count - 1, joined: [whole[index]])
        }
    }
}
