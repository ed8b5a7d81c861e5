import CorkboardModel
import CorkboardStore
import Dispatch
import Synchronization
import TestSupport
import Testing

@testable import CorkboardSQLite

/// A full disk (simulated with `PRAGMA max_page_count`): the append is answered
/// `unavailable` with a message, nothing of it is written, and once there is room again
/// the store works without a restart.
@Suite(.threadsOfTheirOwn) struct DiskFullTests {
    private static func fill(_ store: SQLiteStore) throws {
        let text = try store.pragma("page_count") ?? ""
        let pages = try #require(Int(text))
        try store.setMaxPageCount(pages)
    }

    @Test func appendOnAFullDiskFailsCleanlyAndRecovers() throws {
        let directory = try TemporaryDirectory()
        let store = try Fixtures.open(directory)
        try store.create(Fixtures.board())
        try store.appendEvents("b", after: 0, count: 2)
        let before = try store.load("b")
        try Self.fill(store)

        let bulky = Fixtures.bulkyBatch(board: "b", expectedSeq: 2)
        guard case .unavailable(let reason)? = store.appendResult(bulky).failure else {
            Issue.record("an append on a full disk must be unavailable")
            return
        }
        #expect(reason.contains("full") && reason.contains("corkboard.sqlite"))
        #expect(try store.load("b") == before)
        #expect(try store.countRows("event", board: "b") == 2)

        // Space again: the same batch goes through, on the same store.
        try store.setMaxPageCount(1_000_000)
        try store.appendResult(bulky).get()
        #expect(try store.load("b")?.seq == 3)
        store.close()
        let reopened = try Fixtures.open(directory)
        #expect(try reopened.load("b")?.events.last == bulky.events[0])
    }

    /// A full disk fails the whole group: every batch of the transaction is unavailable,
    /// including the small one that would have fit, and none of them is written.
    @Test func fullDiskFailsEveryBatchOfTheTransaction() throws {
        let directory = try TemporaryDirectory()
        let store = try Fixtures.open(directory)
        try store.create(Fixtures.board("small"))
        try store.create(Fixtures.board("big"))
        try Self.fill(store)
        let results = Mutex<[String: Result<Void, StoreError>]>([:])
        let group = DispatchGroup()
        store.withQueueHeld {
            for batch in [
                CommitBatch(board: "small", expectedSeq: 0, events: [Fixtures.event(1)]),
                Fixtures.bulkyBatch(board: "big", expectedSeq: 0),
            ] {
                group.enter()
                store.append(batch) { result in
                    results.withLock { $0[batch.board] = result }
                    group.leave()
                }
            }
        }
        #expect(group.wait(timeout: .now() + 10) == .success)
        for board in ["small", "big"] {
            guard case .unavailable? = results.withLock({ $0[board] })?.failure else {
                Issue.record("\(board) must be unavailable")
                continue
            }
            #expect(try store.load(board)?.seq == 0)
        }
        try store.setMaxPageCount(1_000_000)
        try store.appendResult(CommitBatch(board: "small", expectedSeq: 0, events: [Fixtures.event(1)])).get()
    }
}
