import CorkboardModel
import Testing

/// A client's replica applies committed events, and refuses ones that do not fit.
@Suite struct ReplicaTests {
    @Test func followsTheLogAndRefusesEventsOutOfStep() throws {
        var replica = Replica(board: makeBoard("todo: a b; done:"), seq: 4)
        let next = CommittedEvent(seq: 5, opId: "o", client: "c", op: .move(sources: ["b"], destination: Destination(collection: "done")), adjusted: false)
        #expect(throws: BoardError.self) { try replica.apply(CommittedEvent(seq: 6, opId: "p", client: "c", op: .lock(locked: true), adjusted: false)) }
        try replica.apply(next)
        #expect(layout(replica.board) == "todo: a; done: b")
        #expect(replica.seq == 5)
        #expect(throws: BoardError.self) { try replica.apply(next) }
    }

    @Test(arguments: [
        BoardOperation.move(sources: ["zz"], destination: Destination(collection: "todo")),
        .move(sources: ["a"], destination: Destination(collection: "nowhere")),
        .move(sources: ["a", "b"], destination: Destination(collection: "todo", before: "b")),
        .move(sources: ["a"], destination: Destination(collection: "todo", before: "x")),
        .move(sources: ["a", "a"], destination: Destination(collection: "todo")),
        .insert(items: [Item(id: "x", label: "")], destination: Destination(collection: "todo")),
        .delete(items: ["a", "zz"]),
        .updateItem(item: "zz", label: "", data: .unchanged),
        .addCollection(collection: "done", title: "", before: nil),
        .addCollection(collection: "new", title: "", before: "nowhere"),
        .removeCollection(collection: "todo"),
        .renameCollection(collection: "nowhere", title: ""),
    ])
    func anOperationThatDoesNotFitChangesNothing(operation: BoardOperation) {
        var board = makeBoard("todo: a b c; done: x")
        let before = board
        #expect(throws: BoardError.self) { try board.apply(operation) }
        #expect(board == before)
    }

    @Test func leasesAreAcquiredWhollyOrNotAtAll() {
        var leases = LeaseTable()
        #expect(leases.acquire(["a", "b"], for: "c1") == nil)
        #expect(leases.acquire(["c", "b"], for: "c2") == "c1")
        #expect(leases.holder(of: "c") == nil)
        #expect(leases.acquire(["b"], for: "c1") == nil)
        leases.releaseAll(heldBy: "c1")
        #expect(leases.holders.isEmpty)
        _ = leases.acquire(["a"], for: "c2")
        #expect(leases.items(heldBy: "c2") == ["a"])
        leases.release(["a"])
        #expect(leases.holder(of: "a") == nil)
    }

    @Test func theEngineAnswersPlaceholderQuestions() throws {
        let engine = try makeEngine("todo: a b c; done:")
        #expect(engine.itemID(at: 1, in: "todo") == "b")
        #expect(engine.itemID(at: 1, in: "todo", excluding: ["a", "b"]) == nil)
        #expect(engine.itemID(at: 0, in: "todo", excluding: ["a"]) == "b")
        #expect(engine.itemID(at: 0, in: "nowhere") == nil)
        #expect(engine.collection(holding: "c") == "todo")
        #expect(engine.itemCount(of: "done") == 0)
        #expect(engine.collectionIDs == ["todo", "done"])
    }
}
