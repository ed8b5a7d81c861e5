import CorkboardHub
import CorkboardModel
import CorkboardWire
import Dispatch
import Foundation
import HubTestSupport
import TestSupport
import Testing

/// Drags of columns (docs/protocol.md#6-presence-drag-state): `drag.start` with `collections`
/// leases columns as one with `items` leases items — the others see who holds which columns
/// and the placeholder among the columns, a `collection.move` of a held column by anyone else
/// is `busy`, and the drag ends once with the reasons of a drag of items.
@Suite(.threadsOfTheirOwn) struct HubColumnDragTests {
    /// Three columns, a folder in the first (its list is no column), a card named like a column.
    static let board = Board(
        id: "board", title: "Columns",
        collections: [
            BoardCollection(
                id: "todo", title: "To do",
                items: [Item(id: "i1", label: "One"), Item(id: "f1", label: "Folder", folder: Folder()), Item(id: "done", label: "Done?")]),
            BoardCollection(id: "doing", title: "Doing", items: [Item(id: "i2", label: "Two")]),
            BoardCollection(id: "done", title: "Done", items: [Item(id: "i3", label: "Three")]),
        ],
        folders: ["f1": [Item(id: "i4", label: "Four")]])

    static func pair(_ configure: (inout HubConfiguration) -> Void = { _ in }) throws -> (HubFixture, BoardTestClient, BoardTestClient) {
        let fixture = try HubFixture(board: board, configure: configure)
        let (ada, bob) = try fixture.joinAdaAndBob()
        return (fixture, ada, bob)
    }

    static func rejection(_ message: ServerMessage) -> Rejected? {
        if case .rejected(let rejected) = message { rejected } else { nil }
    }

    /// What `client` is answered to a `drag.start` that is refused.
    static func refusal(of message: ClientMessage, by client: BoardTestClient) throws -> Rejected {
        try client.send(message)
        return try #require(Self.rejection(try client.waitFor(type: "rejected")))
    }

    static func moveColumns(_ columns: [CollectionID], before: CollectionID? = nil) -> RequestedOperation {
        .moveCollections(collections: columns, before: before)
    }

    @Test func othersSeeWhoHoldsWhichColumnsAndThePlaceholderAmongTheColumns() throws {
        let (fixture, ada, bob) = try Self.pair()
        defer { withExtendedLifetime(fixture) {} }
        try ada.send(.dragStartColumns(collections: ["todo"]))
        let start = try #require(try bob.waitFor(type: "drag").dragUpdate)
        #expect(start == DragUpdate(client: ada.clientID, name: "Ada", items: [], collections: ["todo"], over: nil))
        // Index 1 among the columns without "todo" (doing, done): before "done", and the end.
        try ada.send(.dragOver(collection: nil, index: 1))
        let over = try #require(try bob.waitFor(type: "drag.over").dragOverTarget)
        #expect(over.client == ada.clientID)
        #expect(over.over == DragTarget(collection: nil, index: 1, before: "done"))
        // The wire form: no collection in the placeholder, collections instead of items.
        #expect(bob.rawLog.contains { $0.contains(#""over":{"before":"done","index":1}"#) })
        #expect(bob.rawLog.contains { $0.contains(#""collections":["todo"]"#) && !$0.contains(#""items""#) })
        try ada.send(.dragOver(collection: nil, index: 2))
        #expect(try bob.waitFor(type: "drag.over").dragOverTarget?.over == DragTarget(collection: nil, index: 2, before: nil))
        // A newcomer's welcome shows the drag in progress.
        let carol = try fixture.join("Carol")
        let peer = try #require(carol.welcome.peers.first { $0.client == ada.clientID })
        #expect(peer.drag == DragState(items: [], collections: ["todo"], over: DragTarget(collection: nil, index: 2, before: nil)))
    }

    @Test func anothersMoveOfAHeldColumnIsBusyAndTheHoldersMoveIsItsDrop() throws {
        let (fixture, ada, bob) = try Self.pair()
        defer { withExtendedLifetime(fixture) {} }
        try ada.send(.dragStartColumns(collections: ["todo"]))
        _ = try bob.waitFor(type: "drag")
        let busy = try bob.reject(Self.moveColumns(["todo"]))
        #expect(busy.code == .busy)
        #expect(busy.message == "column todo is being dragged by \(ada.clientID)")
        #expect(try bob.reject(.moveCollectionsByOffsets(fromOffsets: [0], toOffset: 3), baseSeq: bob.seq).code == .busy)
        // Columns not held move; the cards inside a held column are not held.
        try bob.commit(Self.moveColumns(["done"], before: "doing"))
        try bob.commit(.move(sources: ["i1"], destination: Destination(collection: "doing")))
        // Another drag of the held column is busy; a drag of a card named like it is not.
        let refused = try Self.refusal(of: .dragStartColumns(collections: ["todo"]), by: bob)
        #expect(refused.code == .busy && refused.holder == ada.clientID)
        try bob.send(.dragStart(items: ["done"]))
        #expect(try ada.waitFor(type: "drag").dragUpdate?.items == ["done"])
        try bob.send(.dragEnd)
        _ = try ada.waitFor(type: "drag.cleared")

        // The holder's move of its column is the drop: committed, then cleared `drop`.
        try ada.send(.dragOver(collection: nil, index: 2))
        let opId = try ada.send(Self.moveColumns(["todo"]))
        let committed = try bob.waitFor(type: "committed")
        #expect(committed.committedEvent?.opId == opId)
        #expect(try bob.waitFor(type: "drag.cleared").dragClear.map { $0 == (ada.clientID, .drop) } == true)
        #expect(bob.board.collections.map(\.id) == ["done", "doing", "todo"])
        // Free again for anyone.
        try bob.commit(Self.moveColumns(["todo"], before: "done"))
    }

    @Test func aRemovedColumnClearsItsDragDeletedAfterTheCommit() throws {
        let (fixture, ada, bob) = try Self.pair()
        defer { withExtendedLifetime(fixture) {} }
        try ada.send(.dragStartColumns(collections: ["doing"]))
        _ = try bob.waitFor(type: "drag")
        // Never busy: the removal commits, and the drag ends.
        let opId = try bob.send(.removeCollectionAndItems(collection: "doing"))
        var heard: [ServerMessage] = []
        for _ in 0..<BoardTestClient.readBound where !heard.contains(where: { $0.dragClear != nil }) {
            heard.append(try bob.nextMessage())
        }
        let committed = heard.firstIndex { $0.committedEvent?.opId == opId }
        let cleared = heard.firstIndex { $0.dragClear.map { $0 == (ada.clientID, .deleted) } ?? false }
        #expect(committed != nil && cleared != nil && committed! < cleared!, "\(heard.map(\.typeName))")
        // The holder's drag is over: a placeholder is refused.
        try ada.send(.dragOver(collection: nil, index: 0))
        #expect(try ada.waitFor(type: "error").errorMessage?.code == .invalid)
    }

    @Test func aDragOfColumnsIsRefusedAsADragOfItemsIs() throws {
        let (fixture, ada, bob) = try Self.pair()
        defer { withExtendedLifetime(fixture) {} }
        let gone = try Self.refusal(of: .dragStartColumns(collections: ["nope"]), by: ada)
        #expect(gone.code == .gone && gone.ref == "drag.start")
        let folder = try Self.refusal(of: .dragStartColumns(collections: ["f1"]), by: ada)
        #expect(folder.code == .invalid)
        #expect(folder.message == "f1 is a folder, not a column: it is dragged as an item")
        #expect(try Self.refusal(of: .dragStartColumns(collections: []), by: ada).code == .invalid)
        #expect(try Self.refusal(of: .dragStartColumns(collections: [""]), by: ada).code == .invalid)
        let observer = try fixture.join("Olga", observe: true)
        #expect(try Self.refusal(of: .dragStartColumns(collections: ["todo"]), by: observer).code == .forbidden)
        // Both kinds, or neither: an error, and the connection stays.
        try ada.send(json: #"{"type":"drag.start","items":["i1"],"collections":["todo"]}"#)
        #expect(try ada.waitFor(type: "error").errorMessage?.message == "drag.start takes exactly one of items and collections")
        try ada.send(json: #"{"type":"drag.start"}"#)
        #expect(try ada.waitFor(type: "error").errorMessage?.code == .invalid)
        // Placeholders: no collection in a drag of columns, one in a drag of items, the range.
        try ada.send(.dragStartColumns(collections: ["todo", "doing"]))
        _ = try bob.waitFor(type: "drag")
        try ada.send(.dragOver(collection: "done", index: 0))
        #expect(try ada.waitFor(type: "error").errorMessage?.code == .invalid)
        try ada.send(.dragOver(collection: nil, index: 2))
        #expect(try ada.waitFor(type: "error").errorMessage?.message == "drag.over: index 2 is outside 0…1")
        try ada.send(.dragStart(items: ["i1"]))
        #expect(try bob.waitFor(type: "drag.cleared").dragClear.map { $0 == (ada.clientID, .cancel) } == true)
        try ada.send(.dragOver(collection: nil, index: 0))
        #expect(try ada.waitFor(type: "error").errorMessage?.message == "drag.over needs a collection in a drag of items")
        // Locked.
        try ada.commit(.lock(locked: true))
        #expect(try Self.refusal(of: .dragStartColumns(collections: ["todo"]), by: bob).code == .locked)
    }

    /// Expiry and the holder's cool-off, in the hub's time.
    @Test func aDragOfColumnsExpiresAndItsHolderWaitsTheCoolDown() throws {
        let clock = ManualClock()
        let (fixture, ada, bob) = try Self.pair {
            $0.clock = clock
            $0.dragTimeout = .seconds(30)
            $0.maxDragDuration = .seconds(120)
            $0.leaseCooldown = .seconds(10)
        }
        defer { withExtendedLifetime(fixture) {} }
        try ada.send(.dragStartColumns(collections: ["todo"]))
        _ = try bob.waitFor(type: "drag")
        for step in 1...5 {
            clock.advance(by: .seconds(20))
            try ada.send(.dragOver(collection: nil, index: step % 2))
            _ = try bob.waitFor(type: "drag.over")
        }
        clock.advance(by: HubDragTimeTests.justBefore(seconds: 20))
        #expect(try bob.reject(Self.moveColumns(["todo"])).code == .busy, "leased until the last nanosecond")
        clock.advance(by: HubDragTimeTests.nanosecond)
        #expect((try ada.waitFor(type: "drag.cleared")).dragClear.map { $0 == (ada.clientID, .expired) } == true)
        #expect((try bob.waitFor(type: "drag.cleared")).dragClear.map { $0 == (ada.clientID, .expired) } == true)
        try bob.commit(Self.moveColumns(["todo"]))
        #expect(try Self.refusal(of: .dragStartColumns(collections: ["todo"]), by: ada).code == .rateLimited)
        // A drag of a card with the column's id is no drag of the column: not cooled down.
        try ada.send(.dragStart(items: ["i1"]))
        #expect(try bob.waitFor(type: "drag").dragUpdate?.items == ["i1"])
        clock.advance(by: .seconds(10))
        try ada.send(.dragStartColumns(collections: ["todo"]))
        #expect(try bob.waitFor(type: "drag").dragUpdate?.collections == ["todo"])
    }

    /// On a big audience the changes go in batches, in both forms, and read back the same.
    @Test func batchesCarryDragsOfColumnsInTheFullAndTheCompactForm() throws {
        let clock = ManualClock()
        let fixture = try HubFixture(board: Self.board) {
            $0.clock = clock
            $0.dragBatchAudience = 1
            $0.dragBroadcastInterval = HubCompactDragsTests.tick
        }
        defer { withExtendedLifetime(fixture) {} }
        let ada = try fixture.join("Ada")
        let bob = try fixture.join("Bob", presence: .compact)
        let carol = try fixture.join("Carol")
        try HubCompactDragsTests.send(.dragStartColumns(collections: ["doing"]), from: ada)
        try HubCompactDragsTests.send(.dragOver(collection: nil, index: 0), from: ada)
        clock.advance(by: HubCompactDragsTests.tick)
        try HubCompactDragsTests.send(.dragOver(collection: nil, index: 2), from: ada)
        clock.advance(by: HubCompactDragsTests.tick)
        try HubCompactDragsTests.send(.dragEnd, from: ada)
        clock.advance(by: HubCompactDragsTests.tick)

        let compact = try HubCompactDragsTests.batchTexts(of: bob)
        let full = try HubCompactDragsTests.batchTexts(of: carol)
        #expect(compact.allSatisfy { $0.contains(#""type":"drags.compact""#) })
        #expect(compact.joined().contains(#"["\#(ada.clientID)","Ada",["doing"],0,"todo"]"#), "\(compact)")
        #expect(compact.joined().contains(#"["\#(ada.clientID)",2,null]"#), "\(compact)")
        let expected: [DragChange] = [
            .started(
                DragUpdate(client: ada.clientID, name: "Ada", items: [], collections: ["doing"], over: DragTarget(collection: nil, index: 0, before: "todo"))),
            .moved(client: ada.clientID, over: DragTarget(collection: nil, index: 2, before: nil)),
            .cleared(client: ada.clientID, reason: .cancel),
        ]
        #expect(try HubCompactDragsTests.changes(in: compact) == expected)
        #expect(try HubCompactDragsTests.changes(in: full) == expected)
    }
}
