import CorkboardModel
import Testing

/// `collection.remove` with `withItems` (docs/protocol.md#4-operations): a column goes with
/// everything in it, folders' contents too, in one event that the history can take back.
@Suite struct CollectionRemoveWithItemsTests {
    func removeWithItems(_ opId: String, _ collection: String) -> OperationRequest {
        OperationRequest(opId: opId, .removeCollectionAndItems(collection: collection))
    }

    @Test func theColumnGoesWithItsCardsAndWhatItsFoldersHold() throws {
        var engine = try makeEngine("todo: a f/ b; done: x; /f: y g/; /g: z")
        let event = try #require(engine.apply(removeWithItems("r", "todo"), client: "c1", role: .editor).event)
        #expect(event.op == .removeCollectionAndItems(collection: "todo"))
        #expect(!event.adjusted)
        #expect(engine.layoutText == "done: x")
        // The history reconstructs the board before it, folders and all.
        #expect(engine.board(asOf: 0) == makeBoard("todo: a f/ b; done: x; /f: y g/; /g: z"))
        // An empty column goes too; one that is gone is gone.
        _ = try #require(
            engine.apply(OperationRequest(opId: "a", .addCollection(collection: "later", title: "L", before: nil)), client: "c1", role: .editor).event)
        #expect(engine.apply(removeWithItems("e", "later"), client: "c1", role: .editor).event != nil)
        #expect(engine.apply(removeWithItems("g", "todo"), client: "c1", role: .editor).rejectionCode == .gone)
    }

    @Test func aFolderIsNoColumnAndWithoutTheFlagAFullColumnStays() throws {
        var engine = try makeEngine("todo: a f/; /f: y")
        #expect(engine.apply(removeWithItems("f", "f"), client: "c1", role: .editor).rejectionCode == .invalid)
        #expect(engine.apply(OperationRequest(opId: "p", .removeCollection(collection: "todo")), client: "c1", role: .editor).rejectionCode == .invalid)
        #expect(engine.apply(removeWithItems("v", "todo"), client: "c1", role: .viewer).rejectionCode == .forbidden)
        #expect(engine.seq == 0)
    }

    @Test func itIsNeverBusyAndClearsTheDragsItHits() throws {
        var engine = try makeEngine("todo: a f/; done: x; /f: y")
        let leases = LeaseTable(holders: ["a": "c2", "y": "c3", "x": "c4"])
        guard case .committed(let commit) = engine.apply(removeWithItems("r", "todo"), client: "c1", role: .editor, leases: leases) else {
            Issue.record("the removal of a column with leased items did not commit")
            return
        }
        #expect(commit.leaseHits == [LeaseHit(item: "a", holder: "c2"), LeaseHit(item: "y", holder: "c3")])
        #expect(engine.layoutText == "done: x")
    }

    @Test func offsetsAndAnchorsReadAtABaseBeforeItStillWork() throws {
        var engine = try makeEngine("todo: a b; done: x y z")
        _ = try #require(engine.apply(removeWithItems("r", "todo"), client: "c2", role: .editor).event)
        // c1 at base 0 moves y (offset 1 of done) before z, and asks for a before b: gone with todo.
        let event = try #require(engine.apply(moveOffsets("o", base: 0, "done", from: [1], to: 0), client: "c1", role: .editor).event)
        #expect(event.op == .move(sources: ["y"], destination: Destination(collection: "done", before: "x")))
        #expect(engine.apply(moveOffsets("t", base: 0, "todo", from: [0], to: 0, in: "done"), client: "c1", role: .editor).rejectionCode == .gone)
        let restored = try BoardEngine(snapshot: makeBoard("todo: a b; done: x y z"), seq: 0, replaying: engine.events(after: 0) ?? [])
        #expect(restored.board == engine.board)
    }
}
