import CorkboardHub
import CorkboardModel
import CorkboardWire
import Foundation
import HubTestSupport
import TestSupport
import Testing

/// docs/protocol.md#4-operations and docs/protocol.md#5-resolution, in-process: the board is todo [i1…i5], done [i6 i7 i8].
@Suite(.threadsOfTheirOwn) struct HubOperationTests {
    static func offsets(_ collection: CollectionID, _ from: [Int], _ to: Int, into toCollection: CollectionID? = nil) -> RequestedOperation {
        .moveByOffsets(collection: collection, fromOffsets: from, toOffset: to, toCollection: toCollection)
    }

    static func move(_ sources: [ItemID], to collection: CollectionID, before: ItemID? = nil) -> RequestedOperation {
        .move(sources: sources, destination: Destination(collection: collection, before: before))
    }

    @Test func offsetsAreReadAgainstTheBoardAtTheBaseSeq() throws {
        let fixture = try HubFixture()
        let ada = try fixture.join("Ada")
        let bob = try fixture.join("Bob")
        // Bob moves i1 away first: todo is now [i2 i3 i4 i5].
        try bob.commit(Self.move(["i1"], to: "done"))
        _ = try ada.waitFor(type: "committed")
        // Ada, still on base 0, moves offsets 1 and 2 (i2, i3 at seq 0) to offset 4 (i5 at seq 0).
        // Read against the current board they would be i3, i4 and the end.
        let opId = try ada.send(Self.offsets("todo", [1, 2], 4), baseSeq: 0)
        let answer = try ada.outcome(of: opId)
        // Stamped with the hub's clock (`at`) and Ada's hello name (`by`: no signed token).
        guard case .committed(let committed) = answer else { throw HubTestFailure("expected committed, got \(answer)") }
        let expected = CommittedEvent(
            seq: 2, opId: opId, client: ada.clientID,
            op: .move(sources: ["i2", "i3"], destination: Destination(collection: "todo", before: "i5")),
            adjusted: false, at: try #require(committed.at), by: "Ada")
        #expect(answer == .committed(expected))
        #expect(try bob.waitFor(type: "committed") == .committed(expected))
        let document = try fixture.expectAgreement([ada, bob])
        #expect(document.board.ids("todo") == ["i4", "i2", "i3", "i5"])
        #expect(document.board.ids("done") == ["i6", "i7", "i8", "i1"])
    }

    @Test func offsetsIntoAnotherCollectionAndToTheEnd() throws {
        let fixture = try HubFixture()
        let ada = try fixture.join("Ada")
        // i1 to offset 1 of done: before i7.
        let first = try ada.commit(Self.offsets("todo", [0], 1, into: "done"), baseSeq: 0)
        #expect(first.op == .move(sources: ["i1"], destination: Destination(collection: "done", before: "i7")))
        #expect(first.adjusted == false)
        // done is [i6 i1 i7 i8]; offsets 2 and 0 (given unsorted: ascending order counts) to the end of todo (count 4).
        let second = try ada.commit(Self.offsets("done", [2, 0], 4, into: "todo"), baseSeq: 1)
        #expect(second.op == .move(sources: ["i6", "i7"], destination: Destination(collection: "todo", before: nil)))
        let document = try fixture.expectAgreement([ada])
        #expect(document.board.ids("todo") == ["i2", "i3", "i4", "i5", "i6", "i7"])
        #expect(document.board.ids("done") == ["i1", "i8"])
    }

    @Test func offsetsOutOfRangeOrABaseAboveTheSeqAreInvalid() throws {
        let fixture = try HubFixture()
        let ada = try fixture.join("Ada")
        let bob = try fixture.join("Bob")
        let cases: [(RequestedOperation, Int)] = [
            (Self.offsets("todo", [5], 0), 0), // todo has offsets 0…4
            (Self.offsets("todo", [0], 6), 0), // toOffset is at most the count (5)
            (Self.offsets("todo", [0], 4, into: "done"), 0), // done has 3 items
            (Self.offsets("nowhere", [0], 0), 0), // no such collection at the base
            (Self.move(["i1"], to: "done"), 1), // baseSeq above the current seq 0
        ]
        for (operation, base) in cases {
            let rejected = try ada.reject(operation, baseSeq: base)
            #expect(rejected.code == .invalid, "\(operation) at base \(base)")
        }
        #expect(try bob.sync().filter { $0.typeName != "peer.joined" }.isEmpty)
        #expect(try fixture.document() == fixture.created)
    }

    @Test func offsetsMoveWithABaseOlderThanTheHistoryIsGone() throws {
        let fixture = try HubFixture { $0.historyCapacity = 5 }
        let ada = try fixture.join("Ada")
        for round in 0..<10 {
            try ada.commit(.updateItem(item: "i8", label: "Eight \(round)", data: .unchanged))
        }
        #expect(try ada.reject(Self.offsets("todo", [0], 2), baseSeq: 1).code == .gone)
        // An anchor move from that far back still resolves: its anchor is where it was.
        let event = try ada.commit(Self.move(["i1"], to: "done", before: "i7"), baseSeq: 1)
        #expect(event.op == Self.move(["i1"], to: "done", before: "i7").resolvedForm)
        #expect(event.adjusted == false)
        try fixture.expectAgreement([ada])
    }

    @Test func anAnchorThatMovedAwayIsFollowedForwardFromWhereItWas() throws {
        let fixture = try HubFixture()
        let ada = try fixture.join("Ada")
        let bob = try fixture.join("Bob")
        // seq 1: Bob takes i7 out of done.
        try bob.commit(Self.move(["i7"], to: "todo"))
        // seq 2: Ada, on base 0, puts i1 before i7 in done. i7 is gone from done; at seq 0 the next
        // item after it in done was i8, which is still there: before i8, adjusted.
        let moved = try ada.commit(Self.move(["i1"], to: "done", before: "i7"), baseSeq: 0)
        #expect(moved.op == .move(sources: ["i1"], destination: Destination(collection: "done", before: "i8")))
        #expect(moved.adjusted == true)
        try fixture.expectAgreement([ada, bob])
        #expect(ada.board.ids("done") == ["i6", "i1", "i8"])

        // seq 3: Bob takes i8 out of done too.
        try bob.commit(Self.move(["i8"], to: "todo"))
        // seq 4: Ada on base 2 puts i3 before i8: nothing after i8 in done at seq 2 is still there: the end, adjusted.
        let toEnd = try ada.commit(Self.move(["i3"], to: "done", before: "i8"), baseSeq: 2)
        #expect(toEnd.op == .move(sources: ["i3"], destination: Destination(collection: "done", before: nil)))
        #expect(toEnd.adjusted == true)

        // seq 5: an anchor that was never in done: the end, adjusted.
        let unknown = try ada.commit(Self.move(["i4"], to: "done", before: "no-such-item"))
        #expect(unknown.op == .move(sources: ["i4"], destination: Destination(collection: "done", before: nil)))
        #expect(unknown.adjusted == true)

        let document = try fixture.expectAgreement([ada, bob])
        #expect(document.seq == 5)
        #expect(document.board.ids("done") == ["i6", "i1", "i3", "i4"])
        #expect(document.board.ids("todo") == ["i2", "i5", "i7", "i8"])
    }

    @Test func anAnchorThatIsASourceGathersTheSourcesInPlace() throws {
        let fixture = try HubFixture()
        let ada = try fixture.join("Ada")
        // Before i2, which is itself moved: before the first later item that is not a source (i3).
        let event = try ada.commit(Self.move(["i4", "i2"], to: "todo", before: "i2"))
        #expect(event.op == .move(sources: ["i4", "i2"], destination: Destination(collection: "todo", before: "i3")))
        #expect(event.adjusted == false)
        #expect(try fixture.expectAgreement([ada]).board.ids("todo") == ["i1", "i4", "i2", "i3", "i5"])
    }

    @Test func duplicateAndMissingSourcesAreDroppedAndAdjusted() throws {
        let fixture = try HubFixture()
        let ada = try fixture.join("Ada")
        let event = try ada.commit(Self.move(["i2", "ghost", "i3", "i2"], to: "done", before: "i6"))
        #expect(event.op == .move(sources: ["i2", "i3"], destination: Destination(collection: "done", before: "i6")))
        #expect(event.adjusted == true)
        #expect(try ada.reject(Self.move(["ghost", "phantom"], to: "done")).code == .gone)
        #expect(try ada.reject(Self.move(["i1"], to: "no-such-collection")).code == .gone)
        try fixture.expectAgreement([ada])
    }

    @Test func deleteWinsOverAConcurrentMove() throws {
        let fixture = try HubFixture()
        let ada = try fixture.join("Ada")
        let bob = try fixture.join("Bob")
        // Bob deletes i2 (seq 1) while Ada, on base 0, is about to move it.
        try bob.commit(.delete(items: ["i2"]))
        let gone = try ada.reject(Self.move(["i2"], to: "done"), baseSeq: 0)
        #expect(gone.code == .gone)
        // With another source the move goes on without the deleted one, adjusted.
        let partial = try ada.commit(Self.move(["i2", "i3"], to: "done", before: "i6"), baseSeq: 0)
        #expect(partial.op == .move(sources: ["i3"], destination: Destination(collection: "done", before: "i6")))
        #expect(partial.adjusted == true)
        // A delete based on a board from before a move still deletes.
        try ada.commit(Self.move(["i4"], to: "done"))
        let deleted = try bob.commit(.delete(items: ["i4"]), baseSeq: 1)
        #expect(deleted.op == .delete(items: ["i4"]))
        // Deleting what no longer exists is gone.
        #expect(try bob.reject(.delete(items: ["i2", "i4"])).code == .gone)
        let document = try fixture.expectAgreement([ada, bob])
        #expect(document.seq == 4)
        #expect(Set(document.board.allItemIDs) == ["i1", "i3", "i5", "i6", "i7", "i8"])
    }

    @Test func aMoveThatChangesNothingIsANoopForTheSenderAlone() throws {
        let fixture = try HubFixture()
        let ada = try fixture.join("Ada")
        let bob = try fixture.join("Bob")
        _ = try ada.waitFor(type: "peer.joined")
        for operation in [
            Self.move(["i2"], to: "todo", before: "i3"),
            Self.move(["i8"], to: "done"),
            Self.move(["i2", "i3"], to: "todo", before: "i4"),
            Self.offsets("todo", [1], 2), // Array.move(fromOffsets: [1], toOffset: 2) changes nothing
            Self.offsets("done", [0, 1], 0),
        ] {
            let opId = try ada.send(operation)
            #expect(try ada.nextMessage() == .noop(Noop(opId: opId, seq: 0)), "\(operation)")
        }
        #expect(try bob.sync().isEmpty, "a noop is not broadcast")
        #expect(try fixture.document() == fixture.created)
    }

    @Test func theOtherOperationsCommitAndReachEveryone() throws {
        let fixture = try HubFixture()
        let ada = try fixture.join("Ada")
        let bob = try fixture.join("Bob")
        let insert = try ada.commit(
            .insert(
                items: [Item(id: "n1", label: "New", data: ["k": "v"]), Item(id: "n2", label: "")],
                destination: Destination(collection: "done", before: "i7")))
        #expect(
            insert.op
                == .insert(
                    items: [Item(id: "n1", label: "New", data: ["k": "v"]), Item(id: "n2", label: "")],
                    destination: Destination(collection: "done", before: "i7")))
        #expect(try ada.reject(.insert(items: [Item(id: "i3", label: "again")], destination: Destination(collection: "todo"))).code == .invalid)
        try ada.commit(.updateItem(item: "i2", label: "Two, renamed", data: .replace(["done": .bool(true)])))
        try bob.commit(.updateItem(item: "i1", label: nil, data: .remove))
        try bob.commit(.renameCollection(collection: "todo", title: "Backlog"))
        try ada.commit(.addCollection(collection: "later", title: "Later", before: "done"))
        #expect(try ada.reject(.removeCollection(collection: "done")).code == .invalid, "not empty")
        try bob.commit(Self.move(["i5"], to: "later"))
        try bob.commit(Self.move(["i5"], to: "todo", before: "i1"))
        try ada.commit(.removeCollection(collection: "later"))
        let document = try fixture.expectAgreement([ada, bob])
        #expect(document.seq == 8)
        let board = document.board
        #expect(board.collections.map(\.id) == ["todo", "done"])
        #expect(board.collections[0].title == "Backlog")
        #expect(board.ids("todo") == ["i5", "i1", "i2", "i3", "i4"])
        #expect(board.ids("done") == ["i6", "n1", "n2", "i7", "i8"])
        #expect(board.collections[0].items[1].data == nil)
        #expect(board.collections[0].items[2] == Item(id: "i2", label: "Two, renamed", data: ["done": .bool(true)]))
        #expect(board.collections[1].items[1].data == ["k": "v"])
        // A newcomer's snapshot is the same board.
        #expect(try fixture.join("Cy").board == board)
    }

    @Test func aLockedBoardRejectsEverythingButUnlock() throws {
        let fixture = try HubFixture()
        let owner = try fixture.join("Owner")
        let bob = try fixture.join("Bob")
        #expect(owner.welcome.role == .owner)
        let lock = try owner.commit(.lock(locked: true))
        #expect(lock.op == .lock(locked: true))
        #expect(try bob.waitFor(type: "committed") == .committed(lock))
        #expect(bob.board.locked)
        #expect(try fixture.document().board.locked)
        #expect(try fixture.join("Late").welcome.board?.locked == true)

        #expect(try bob.reject(Self.move(["i1"], to: "done")).code == .locked)
        #expect(try bob.reject(.delete(items: ["i1"])).code == .locked)
        #expect(try bob.reject(.insert(items: [Item(id: "x", label: "x")], destination: Destination(collection: "todo"))).code == .locked)
        #expect(try owner.reject(.updateItem(item: "i1", label: "no", data: .unchanged)).code == .locked)
        #expect(try owner.reject(.addCollection(collection: "c", title: "C", before: nil)).code == .locked)
        #expect(try fixture.document().seq == 1)

        let unlock = try owner.commit(.lock(locked: false))
        #expect(try bob.waitFor(type: "committed") == .committed(unlock))
        #expect(!bob.board.locked)
        try bob.commit(Self.move(["i1"], to: "done"))
        let document = try fixture.expectAgreement([owner, bob])
        #expect(document.seq == 3)
        #expect(!document.board.locked)
    }
}

extension RequestedOperation {
    /// The committed form of an anchor move as asked (no adjustment).
    var resolvedForm: BoardOperation? {
        if case .move(let sources, let destination) = self { return .move(sources: sources, destination: destination) }
        return nil
    }
}
