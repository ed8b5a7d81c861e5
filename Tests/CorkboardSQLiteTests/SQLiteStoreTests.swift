import CorkboardModel
import CorkboardStore
import TestSupport
import Testing

@testable import CorkboardSQLite

/// What the file keeps across a restart (the `BoardStore` calls themselves are checked by the
/// contract suite, Tests/CorkboardStoreTests).
@Suite(.threadsOfTheirOwn) struct SQLiteStoreTests {
    /// Close and reopen: the same boards, seqs and epochs, and appends continue.
    @Test func restartKeepsBoardsSeqsAndEpochs() throws {
        let directory = try TemporaryDirectory()
        do {
            let store = try Fixtures.open(directory, syncMode: .full)
            try store.create(Fixtures.board("a"), epoch: "epoch-a")
            try store.create(Fixtures.board("b"), epoch: "epoch-b")
            try store.appendEvents("a", after: 0, count: 5)
            try store.appendEvents("a", after: 5, count: 2)
            try store.appendEvents("b", after: 0, count: 1)
            store.close()
        }
        let store = try Fixtures.open(directory, syncMode: .full)
        #expect(try store.list() == [BoardSummary(id: "a", title: "Board a", seq: 7), BoardSummary(id: "b", title: "Board b", seq: 1)])
        let a = try #require(try store.load("a"))
        #expect(a.epoch == "epoch-a")
        #expect(a.seq == 7 && a.snapshotSeq == 0)
        #expect(a.events == Fixtures.events(1...7))
        #expect(try Fixtures.rebuild(a) == Fixtures.expected(after: 7, "a"))
        // The seq continues where it stopped; the epoch does not change on a restart.
        #expect(store.appendResult(CommitBatch(board: "a", expectedSeq: 0, events: [Fixtures.event(1)])).failure == .conflict(currentSeq: 7))
        try store.appendEvents("a", after: 7, count: 1)
        let again = try #require(try store.load("a", historyLimit: 3))
        #expect(again.epoch == "epoch-a" && again.seq == 8)
        #expect(again.snapshotSeq == 5 && again.events.map(\.seq) == [6, 7, 8])
        #expect(try Fixtures.rebuild(again) == Fixtures.expected(after: 8, "a"))
        #expect(try store.load("b")?.epoch == "epoch-b")
    }

    @Test func rejectionsAndNoopsAreRememberedAcrossReopen() throws {
        let directory = try TemporaryDirectory()
        let rejections = [
            Rejection(opId: "r1", code: .invalid, message: "bad move"),
            Rejection(opId: "r2", code: .gone, message: "item gone"),
        ]
        let noops = [Noop(opId: "n1", seq: 0), Noop(opId: "n2", seq: 1)]
        do {
            let store = try Fixtures.open(directory)
            try store.create(Fixtures.board())
            try store.appendResult(
                CommitBatch(
                    board: "b", expectedSeq: 0, events: Fixtures.events(1...1), rejections: [rejections[0]], noops: [noops[0]])
            ).get()
            // A batch of answers alone: the seq does not move.
            try store.appendResult(CommitBatch(board: "b", expectedSeq: 1, events: [], rejections: [rejections[1]], noops: [noops[1]])).get()
            store.close()
        }
        let store = try Fixtures.open(directory)
        let loaded = try #require(try store.load("b"))
        #expect(loaded.rejections == rejections)
        #expect(loaded.noops == noops)
        #expect(loaded.seq == 1)
    }

    /// A lock operation in a batch: the board rebuilt from the file is locked.
    @Test func lockSurvivesRestart() throws {
        let directory = try TemporaryDirectory()
        do {
            let store = try Fixtures.open(directory)
            try store.create(Fixtures.board())
            let lock = CommittedEvent(seq: 1, opId: "lock", client: "c1", op: .lock(locked: true), adjusted: false)
            try store.appendResult(CommitBatch(board: "b", expectedSeq: 0, events: [lock])).get()
            store.close()
        }
        let store = try Fixtures.open(directory)
        #expect(try Fixtures.rebuild(#require(try store.load("b"))).locked)
    }
}
