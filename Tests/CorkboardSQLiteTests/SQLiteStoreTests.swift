@testable import CorkboardSQLite
import CorkboardModel
import CorkboardStore
import TestSupport
import Testing

/// The `BoardStore` calls, read back from the file, and again after a restart.
@Suite(.threadsOfTheirOwn) struct SQLiteStoreTests {
    @Test func createListAndLoad() throws {
        let directory = try TemporaryDirectory()
        let store = try Fixtures.open(directory)
        try store.create(Fixtures.board("b"))
        try store.create(Fixtures.board("a"), epoch: "e2")
        #expect(wait { store.createBoard(Fixtures.board("b"), epoch: "e3", $0) }.failure == .alreadyExists)
        #expect(try store.list() == [BoardSummary(id: "a", title: "Board a", seq: 0), BoardSummary(id: "b", title: "Board b", seq: 0)])
        #expect(try store.load("b") == StoredBoard(snapshot: Fixtures.board("b"), snapshotSeq: 0, epoch: "e1", events: []))
        #expect(try store.load("nope") == nil)
    }

    @Test func appendChecksTheSeqItExtends() throws {
        let directory = try TemporaryDirectory()
        let store = try Fixtures.open(directory)
        try store.create(Fixtures.board())
        let first = CommitBatch(board: "b", expectedSeq: 0, events: Fixtures.events(1...2))
        try store.appendResult(first).get()
        #expect(store.appendResult(first).failure == .conflict(currentSeq: 2))
        #expect(store.appendResult(CommitBatch(board: "x", expectedSeq: 0, events: [])).failure == .notFound)
        #expect(try wait { store.events(board: "b", after: 1, limit: 10, $0) }.get() == [Fixtures.event(2)])
        #expect(try wait { store.events(board: "b", after: 0, limit: 1, $0) }.get() == [Fixtures.event(1)])
        #expect(wait { store.events(board: "x", after: 0, limit: 1, $0) }.failure == .notFound)
        #expect(try store.list().first?.seq == 2)
    }

    /// A refused batch (behind, or not in seq order) leaves the board as it was.
    @Test func refusedBatchLeavesTheBoardUntouched() throws {
        let directory = try TemporaryDirectory()
        let store = try Fixtures.open(directory)
        try store.create(Fixtures.board())
        try store.appendEvents("b", after: 0, count: 3)
        let before = try store.load("b")
        let behind = CommitBatch(board: "b", expectedSeq: 1, events: Fixtures.events(2...4), rejections: [
            Rejection(opId: "bad", code: .invalid, message: "no"),
        ])
        #expect(store.appendResult(behind).failure == .conflict(currentSeq: 3))
        let gap = CommitBatch(board: "b", expectedSeq: 3, events: [Fixtures.event(4), Fixtures.event(6)])
        guard case .unavailable(let reason)? = store.appendResult(gap).failure else {
            Issue.record("a batch with a gap must be refused")
            return
        }
        #expect(reason.contains("seq order"))
        #expect(try store.load("b") == before)
        #expect(try store.countRows("event", board: "b") == 3)
        #expect(try store.countRows("rejection", board: "b") == 0)
    }

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
            try store.appendResult(CommitBatch(
                board: "b", expectedSeq: 0, events: Fixtures.events(1...1), rejections: [rejections[0]], noops: [noops[0]])).get()
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

    /// After `close`, calls answer `unavailable` instead of touching a closed connection.
    @Test func closedStoreAnswersUnavailable() throws {
        let directory = try TemporaryDirectory()
        let store = try Fixtures.open(directory)
        try store.create(Fixtures.board())
        store.close()
        guard case .unavailable(let reason)? = store.appendResult(CommitBatch(board: "b", expectedSeq: 0, events: [Fixtures.event(1)])).failure else {
            Issue.record("append after close must fail")
            return
        }
        #expect(reason.contains("closed"))
        #expect(wait { store.listBoards($0) }.failure != nil)
    }
}
