import CorkboardModel
import CorkboardWire
import Testing

@testable import CorkboardHub

/// A drag's start as told to the other nodes: with its items or columns when they fit in one
/// notification, without them otherwise (the other nodes then read them from the store's
/// leases), a drag of columns under the same rule as one of items.
@Suite struct NodePresenceTests {
    static func start(items: [ItemID] = [], columns: [CollectionID]? = nil) -> NodePresence {
        .drag(node: "n1", board: "board", seq: 7, DragUpdate(client: "c1-n1", name: "Ada", items: items, collections: columns, over: nil))
    }

    static func long(_ count: Int) -> [String] {
        (0..<count).map { index in
            let id = "id-\(index)-"
            return id + String(repeating: "x", count: Limits.maximumIDBytes - id.utf8.count)
        }
    }

    @Test func aStartThatFitsCarriesItsColumns() throws {
        let sent = try #require(NodePresence.decode(Self.start(columns: ["todo", "done"]).encoded()))
        #expect(sent.collections == ["todo", "done"] && sent.items == nil)
        let items = try #require(NodePresence.decode(Self.start(items: ["i1"]).encoded()))
        #expect(items.items == ["i1"] && items.collections == nil)
    }

    @Test func aStartTooLongGoesWithoutItsColumnsOrItems() throws {
        for start in [Self.start(columns: Self.long(70)), Self.start(items: Self.long(70))] {
            let payload = start.encoded()
            #expect(payload.utf8.count <= NodePresence.maximumPayloadBytes)
            let sent = try #require(NodePresence.decode(payload))
            #expect(sent.kind == .drag && sent.client == "c1-n1" && sent.name == "Ada")
            #expect(sent.items == nil && sent.collections == nil)
        }
    }
}
