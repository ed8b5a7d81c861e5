import CorkboardModel
import CorkboardStore
import Dispatch
import TestSupport
import Testing

@testable import CorkboardSQLite

/// A fold runs after the transaction that decided it, off the store's queue (issue #31): with a
/// board's fold held (the store's fold queue suspended through `@testable`), the other boards'
/// appends and reads are still answered, and so are the board's own; the fold is installed once
/// it may go on. No board ever waits for another's fold, however long that fold takes.
@Suite(.threadsOfTheirOwn) struct FoldOffTheQueueTests {
    @Test func otherBoardsAreAnsweredWhileAFoldIsHeld() throws {
        let directory = try TemporaryDirectory()
        let store = try Fixtures.open(directory, retainedEvents: 4)
        defer { store.close() }
        try store.create(Fixtures.board("heavy"))
        try store.create(Fixtures.board("other"))
        store.foldQueue.suspend()
        var held = true
        // Runs before the close: a fold still held would keep `close()` waiting.
        defer { if held { store.foldQueue.resume() } }

        // Past retained + slack (4 + 4): the fold is decided and claimed, and waits.
        try store.appendEvents("heavy", after: 0, count: 9)
        #expect(store.folds.contains("heavy"))
        try store.appendEvents("other", after: 0, count: 3)
        #expect(try store.load("other")?.events.count == 3)
        // The board's own appends go on too; they only tally while its fold runs.
        try store.appendEvents("heavy", after: 9, count: 3)
        let waiting = try #require(try store.load("heavy"))
        #expect(waiting.snapshotSeq == 0 && waiting.events.count == 12)

        store.foldQueue.resume()
        held = false
        #expect(try eventually(timeout: 10) { !store.folds.contains("heavy") })
        let folded = try #require(try store.load("heavy"))
        #expect(folded.snapshotSeq == 5 && folded.events.map(\.seq) == Array(6...12))
        #expect(try Fixtures.rebuild(folded) == Fixtures.expected(after: 12, "heavy"))
        #expect(folded.snapshot == (try Fixtures.expected(after: 5, "heavy")))
    }

    /// Bytes appended while a fold runs are only tallied; once it is installed they are
    /// measured and folded at once, not at an append that may never come.
    @Test func whatWasAppendedDuringAFoldIsFoldedWhenItEnds() throws {
        let directory = try TemporaryDirectory()
        let budget = 100_000
        let store = try SQLiteStore(
            directory: directory.path + "/data", syncMode: .normal, retainedEvents: 1_000, historyByteBudget: budget)
        defer { store.close() }
        try store.create(Fixtures.board())
        let blob: JSONObject = ["blob": .string(String(repeating: "z", count: 20_000))]
        func batch(_ seq: Int) -> CommitBatch {
            let event = CommittedEvent(
                seq: seq, opId: "u-\(seq)", client: "c1", op: .updateItem(item: "i1", label: "L\(seq)", data: .replace(blob)),
                adjusted: false)
            return CommitBatch(board: "b", expectedSeq: seq - 1, events: [event])
        }
        store.foldQueue.suspend()
        // Past the budget: a fold is decided and held.
        for seq in 1...6 { try store.appendResult(batch(seq)).get() }
        let answered = DispatchGroup()
        store.withQueueHeld {
            // Waiting for the queue: written only after the fold has read the log.
            for seq in 7...30 {
                answered.enter()
                store.append(batch(seq)) { _ in answered.leave() }
            }
            store.foldQueue.resume()
            // The fold has read events 1…6 and handed its install to the queue, behind those appends.
            store.foldQueue.sync {}
        }
        answered.wait()
        // Each event is stored as about 20,100 bytes: at most budget + slack of them, and one more.
        let fit = (budget + budget / 8) / 20_000 + 1
        // Stepped through the two queues rather than waited for on a clock (a loaded full run
        // took longer than 10 s): each round lets an install start the next fold, that fold
        // read and apply, and its install run.
        var settled = false
        for _ in 0..<8 where !settled {
            store.queue.sync {}
            store.foldQueue.sync {}
            store.queue.sync {}
            settled = try !store.folds.contains("b") && store.countRows("event", board: "b") <= fit
        }
        #expect(settled)
        let loaded = try #require(try store.load("b"))
        #expect(loaded.seq == 30 && loaded.events.count <= fit)
    }
}
