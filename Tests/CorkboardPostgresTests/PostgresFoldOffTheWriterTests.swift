import CorkboardModel
import CorkboardStore
import TestSupport
import Testing

@testable import CorkboardPostgres

/// A fold decodes and applies off the writer's queue (issue #31): with a board's fold held (the
/// store's fold queue suspended through `@testable`), the writer still answers the other
/// boards' appends and reads, and the board's own; the fold is installed once it may go on.
@Suite(.threadsOfTheirOwn) struct PostgresFoldOffTheWriterTests {
    @Test func otherBoardsAreAnsweredWhileAFoldIsHeld() throws {
        let store = try PostgresStore.open(PostgresStore.Configuration(url: try TestDatabase.fresh(), retainedEvents: 4, startupTimeout: 10))
        defer { store.close() }
        try store.create(TestDatabase.board("heavy"))
        try store.create(TestDatabase.board("other"))
        store.foldQueue.suspend()
        var held = true
        defer { if held { store.foldQueue.resume() } }

        // Past retained + slack (4 + 4): the fold is decided, reads, and waits for the fold queue.
        try store.appendWaiting(CommitBatch(board: "heavy", expectedSeq: 0, events: StoreLog.events(1...9))).get()
        try store.appendWaiting(CommitBatch(board: "other", expectedSeq: 0, events: StoreLog.events(1...3))).get()
        #expect(try store.load("other")?.events.count == 3)
        try store.appendWaiting(CommitBatch(board: "heavy", expectedSeq: 9, events: StoreLog.events(10...12))).get()
        #expect(try store.load("heavy")?.snapshotSeq == 0)

        store.foldQueue.resume()
        held = false
        _ = try eventually(timeout: 10) { try store.load("heavy")?.snapshotSeq == 5 }
        let folded = try #require(try store.load("heavy"))
        #expect(folded.snapshotSeq == 5)
        #expect(try StoreLog.rebuild(folded) == (try Self.board(after: 12)))
        #expect(folded.snapshot == (try Self.board(after: 5)))
    }

    static func board(after seq: Int) throws -> Board {
        var board = TestDatabase.board("heavy")
        for event in StoreLog.events(1...seq) { try board.apply(event.op) }
        return board
    }
}
