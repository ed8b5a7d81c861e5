import CorkboardModel
import CorkboardStore
import TestSupport
import Testing

@testable import CorkboardSQLite

/// A folded log as the file keeps it: bounded in rows, and after a restart the same board,
/// epoch and known opIds. (Folding itself is checked for every store by the contract suite,
/// Tests/CorkboardStoreTests.)
@Suite(.threadsOfTheirOwn) struct PruningTests {
    /// Events of about 20 KB, folded by their bytes: the rows stay few, and a reopened store
    /// still knows every commit's opId (`folded_op`) and rebuilds the board.
    @Test func aFoldedLogAndItsOpIdsSurviveARestart() throws {
        let directory = try TemporaryDirectory()
        let budget = 100_000
        let retention = LogRetention(retained: 1_000, byteBudget: budget)
        let blob: JSONObject = ["blob": .string(String(repeating: "z", count: 20_000))]
        var expected = Fixtures.board()
        do {
            let store = try SQLiteStore(
                directory: directory.path + "/data", syncMode: .normal, retainedEvents: retention.retained, historyByteBudget: budget)
            try store.create(Fixtures.board(), epoch: "kept")
            for seq in 1...60 {
                let event = CommittedEvent(
                    seq: seq, opId: "u-\(seq)", client: "c1", op: .updateItem(item: "i1", label: "L\(seq)", data: .replace(blob)),
                    adjusted: false)
                let rejection = Rejection(opId: "bad-\(seq)", code: .invalid, message: "no")
                try store.appendResult(CommitBatch(board: "b", expectedSeq: seq - 1, events: [event], rejections: [rejection])).get()
                try expected.apply(event.op)
                // Each event is stored as about 20,100 bytes: at most budget + slack of them, and one more,
                // once the fold that runs after the append is installed.
                #expect(try eventually(timeout: 10) { try store.countRows("event", board: "b") <= (budget + retention.byteSlack) / 20_000 + 1 })
                #expect(try store.countRows("rejection", board: "b") <= retention.bound)
            }
            store.close()
        }
        let store = try Fixtures.open(directory, retainedEvents: retention.retained)
        let loaded = try #require(try store.load("b"))
        #expect(loaded.epoch == "kept" && loaded.seq == 60 && !loaded.events.isEmpty)
        #expect(try Fixtures.rebuild(loaded) == expected)
        #expect(loaded.foldedCommits.map(\.seq) + loaded.events.map(\.seq) == Array(1...60))
        #expect(loaded.foldedCommits.first == FoldedCommit(opId: "u-1", seq: 1))
        #expect(loaded.rejections.last?.opId == "bad-60")
        let short = try #require(try store.load("b", historyLimit: 2))
        #expect(short.events.map(\.seq) == [59, 60])
        #expect(try Fixtures.rebuild(short) == expected)
    }
}
