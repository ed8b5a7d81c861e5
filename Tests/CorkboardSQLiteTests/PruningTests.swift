@testable import CorkboardSQLite
import CorkboardModel
import CorkboardStore
import TestSupport
import Testing

/// The log and the remembered rejections stay bounded; at least `retainedEvents` events
/// are kept; the epoch never changes; a load rebuilds the same board.
@Suite(.threadsOfTheirOwn) struct PruningTests {
    @Test func logIsFoldedIntoTheSnapshot() throws {
        let directory = try TemporaryDirectory()
        let retained = 3
        let bound = LogRetention(retained: retained).bound
        do {
            let store = try Fixtures.open(directory, retainedEvents: retained)
            try store.create(Fixtures.board(), epoch: "kept")
            for seq in 1...40 {
                let rejection = Rejection(opId: "bad-\(seq)", code: .invalid, message: "no")
                try store.appendEvents("b", after: seq - 1, count: 1, rejections: [rejection])
                let rows = try store.countRows("event", board: "b")
                #expect(rows >= min(seq, retained) && rows <= bound)
                #expect(try store.countRows("rejection", board: "b") <= bound)
            }
            let loaded = try #require(try store.load("b"))
            #expect(loaded.epoch == "kept" && loaded.seq == 40)
            #expect(loaded.events.count >= retained && loaded.events.count <= bound)
            #expect(loaded.snapshotSeq == 40 - loaded.events.count)
            #expect(try Fixtures.rebuild(loaded) == Fixtures.expected(after: 40))
            // Rejections decided before the kept window are forgotten, recent ones kept.
            #expect(loaded.rejections.last?.opId == "bad-40")
            #expect(loaded.rejections.count <= bound)
            // Reading before the kept log is refused, not answered with a hole.
            #expect(wait({ store.events(board: "b", after: 0, limit: 10, $0) }).failure == .pruned(logStartsAfter: loaded.snapshotSeq))
            #expect(try wait { store.events(board: "b", after: loaded.snapshotSeq, limit: 100, $0) }.get() == loaded.events)
            store.close()
        }
        let store = try Fixtures.open(directory, retainedEvents: retained)
        let reopened = try #require(try store.load("b", historyLimit: 2))
        #expect(reopened.epoch == "kept")
        #expect(reopened.events.map(\.seq) == [39, 40])
        #expect(try Fixtures.rebuild(reopened) == Fixtures.expected(after: 40))
    }

    /// Events of about 20 KB: the log is folded by its bytes long before its count, and what
    /// is kept still rebuilds the board after a reopen.
    @Test func aLogOfBigEventsIsFoldedByItsBytes() throws {
        let directory = try TemporaryDirectory()
        let budget = 100_000
        let retention = LogRetention(retained: 1_000, byteBudget: budget)
        let blob: JSONObject = ["blob": .string(String(repeating: "z", count: 20_000))]
        var expected = Fixtures.board()
        do {
            let store = try SQLiteStore(
                directory: directory.path + "/data", syncMode: .normal, retainedEvents: retention.retained, historyByteBudget: budget)
            try store.create(Fixtures.board())
            for seq in 1...60 {
                let event = CommittedEvent(
                    seq: seq, opId: "u-\(seq)", client: "c1", op: .updateItem(item: "i1", label: "L\(seq)", data: .replace(blob)),
                    adjusted: false)
                try store.appendResult(CommitBatch(board: "b", expectedSeq: seq - 1, events: [event])).get()
                try expected.apply(event.op)
                // Each event is stored as about 20,100 bytes: at most budget + slack of them, and one more.
                #expect(try store.countRows("event", board: "b") <= (budget + retention.byteSlack) / 20_000 + 1)
            }
            store.close()
        }
        let store = try Fixtures.open(directory, retainedEvents: retention.retained)
        let loaded = try #require(try store.load("b"))
        #expect(loaded.seq == 60 && !loaded.events.isEmpty)
        #expect(try Fixtures.rebuild(loaded) == expected)
        // Every commit's opId is still known, the folded ones by their seq alone.
        #expect(loaded.foldedCommits.map(\.seq) + loaded.events.map(\.seq) == Array(1...60))
        #expect(loaded.foldedCommits.first == FoldedCommit(opId: "u-1", seq: 1))
        // As far back as the history limit asks: a shorter one gets fewer.
        let short = try #require(try store.load("b", historyLimit: 10))
        #expect(short.foldedCommits.map(\.seq) + short.events.map(\.seq) == Array(51...60))
    }

    /// One big batch passes the bound at once: it is folded down to `retained` too.
    @Test func bigBatchIsFoldedAtOnce() throws {
        let directory = try TemporaryDirectory()
        let store = try Fixtures.open(directory, retainedEvents: 5)
        try store.create(Fixtures.board())
        try store.appendEvents("b", after: 0, count: 50)
        #expect(try store.countRows("event", board: "b") == 5)
        let loaded = try #require(try store.load("b"))
        #expect(loaded.snapshotSeq == 45 && loaded.seq == 50)
        #expect(try Fixtures.rebuild(loaded) == Fixtures.expected(after: 50))
    }

    /// Rejections piling up while the seq stands still are bounded as well.
    @Test func rejectionsAloneAreBounded() throws {
        let directory = try TemporaryDirectory()
        let retained = 4
        let store = try Fixtures.open(directory, retainedEvents: retained)
        try store.create(Fixtures.board())
        for round in 0..<30 {
            let rejections = (0..<3).map { Rejection(opId: "bad-\(round)-\($0)", code: .invalid, message: "no") }
            try store.appendResult(CommitBatch(board: "b", expectedSeq: 0, events: [], rejections: rejections)).get()
        }
        let rows = try store.countRows("rejection", board: "b")
        #expect(rows >= retained && rows <= LogRetention(retained: retained).bound)
        let loaded = try #require(try store.load("b"))
        #expect(loaded.rejections.count == rows)
        #expect(loaded.rejections.last?.opId == "bad-29-2")
    }

    /// A repeated opId replaces its remembered rejection instead of being counted twice.
    @Test func sameOpIdIsRememberedOnce() throws {
        let directory = try TemporaryDirectory()
        let store = try Fixtures.open(directory)
        try store.create(Fixtures.board())
        try store.appendResult(CommitBatch(board: "b", expectedSeq: 0, events: [], rejections: [Rejection(opId: "x", code: .invalid, message: "first")])).get()
        try store.appendResult(CommitBatch(board: "b", expectedSeq: 0, events: [], rejections: [Rejection(opId: "x", code: .gone, message: "second")])).get()
        #expect(try store.load("b")?.rejections == [Rejection(opId: "x", code: .gone, message: "second")])
    }
}
