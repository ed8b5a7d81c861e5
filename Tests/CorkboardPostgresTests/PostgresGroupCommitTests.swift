import CorkboardModel
import CorkboardStore
import Foundation
import Synchronization
import TestSupport
import Testing

@testable import CorkboardPostgres

/// Cross-board group commit (issue #37): the appends of many boards that wait behind a round
/// go to PostgreSQL as one transaction, and one board's refused append fails only itself.
///
/// Rounds are made deterministic by holding one board's row lock from another connection:
/// the round appending to it waits in PostgreSQL, and every append sent meanwhile waits in
/// the store for the next round.
@Suite(.threadsOfTheirOwn) struct PostgresGroupCommitTests {
    @Test func boardsWaitingBehindARoundCommitInOneTransaction() throws {
        let url = try TestDatabase.fresh()
        let store = try TestDatabase.open(url)
        defer { store.close() }
        let others = (1...40).map { "board-\($0)" }
        for board in ["held"] + others { try store.create(TestDatabase.board(board)) }
        let lock = try SideConnection(url: url)
        try lock.run(["BEGIN", "SELECT 1 FROM board WHERE id = 'held' FOR UPDATE"])

        let answers = Answers()
        store.append(CommitBatch(board: "held", expectedSeq: 0, events: StoreLog.events(1...1)), answers.recorder("held"))
        #expect(eventually(timeout: 10) { store.writer.queue.sync { store.appendRounds.isSending } })
        for board in others {
            store.append(CommitBatch(board: board, expectedSeq: 0, events: StoreLog.events(1...2)), answers.recorder(board))
        }
        #expect(eventually(timeout: 10) { store.writer.queue.sync { store.appendRounds.waitingCount } == others.count })
        #expect(answers.count == 0)

        try lock.run(["COMMIT"])
        #expect(eventually(timeout: 10) { answers.count == others.count + 1 })
        #expect(answers.failures.isEmpty)
        // Rows written by one transaction share its id (xmin).
        let transactions = try lock.run(["SELECT count(DISTINCT xmin::text) AS n FROM event WHERE board LIKE 'board-%'"])
        #expect(try transactions[0].int(0, "n") == 1)
        #expect(try lock.run(["SELECT count(*) AS n FROM event"])[0].int(0, "n") == 1 + 2 * others.count)
    }

    /// A batch PostgreSQL refuses (here a NUL, which `text` cannot hold, in a client id that
    /// only the store sees) rolls back its round; it alone is answered with the error, and
    /// the boards beside it commit in the next round.
    @Test func aRefusedAppendFailsAloneAndTheBoardsBesideItCommit() throws {
        let url = try TestDatabase.fresh()
        let store = try TestDatabase.open(url)
        defer { store.close() }
        for board in ["held", "a", "b", "c"] { try store.create(TestDatabase.board(board)) }
        let lock = try SideConnection(url: url)
        try lock.run(["BEGIN", "SELECT 1 FROM board WHERE id = 'held' FOR UPDATE"])

        let answers = Answers()
        store.append(CommitBatch(board: "held", expectedSeq: 0, events: StoreLog.events(1...1)), answers.recorder("held"))
        #expect(eventually(timeout: 10) { store.writer.queue.sync { store.appendRounds.isSending } })
        store.append(CommitBatch(board: "a", expectedSeq: 0, events: StoreLog.events(1...1)), answers.recorder("a"))
        store.append(CommitBatch(board: "b", expectedSeq: 0, events: [StoreLog.event(1, client: "c\u{0}1")]), answers.recorder("b"))
        // A conflict is an answer, not a failure: it rolls nothing back.
        store.append(CommitBatch(board: "c", expectedSeq: 5, events: StoreLog.events(6...6)), answers.recorder("c"))
        #expect(eventually(timeout: 10) { store.writer.queue.sync { store.appendRounds.waitingCount } == 3 })

        try lock.run(["COMMIT"])
        #expect(eventually(timeout: 10) { answers.count == 4 })
        #expect(answers.failures.keys.sorted() == ["b", "c"])
        guard case .unavailable(let reason) = try #require(answers.failures["b"]) else {
            Issue.record("b's refusal must be its own error, not \(String(describing: answers.failures["b"]))")
            return
        }
        #expect(reason.contains("PostgreSQL error"))
        #expect(answers.failures["c"] == .conflict(currentSeq: 0))
        #expect(try store.load("a")?.events.map(\.seq) == [1])
        #expect(try store.load("b")?.events.isEmpty == true)
    }
}

/// A connection of the test's own, beside the store's: to hold a row lock, or to look.
private final class SideConnection: Sendable {
    private let connection: PostgresConnection

    init(url: String) throws {
        connection = PostgresConnection(settings: .init(url: url), label: "test.side")
        let ready = Atomic<Bool>(false)
        connection.onState = { if $0 == .ready { ready.store(true, ordering: .releasing) } }
        connection.start()
        guard eventually(timeout: 10, { ready.load(ordering: .acquiring) }) else {
            throw PostgresError.connection("the test's connection did not start")
        }
    }

    deinit { connection.close() }

    /// Runs `sql` as one group; an explicit BEGIN stays open after it.
    @discardableResult
    func run(_ sql: [String]) throws -> [PostgresRows] {
        try wait { connection.execute(sql.map { PostgresStatement($0) }, $0) }.get()
    }
}

/// The answers of appends, by board.
private final class Answers: Sendable {
    private let results = Mutex<[String: Result<Void, StoreError>]>([:])

    func recorder(_ board: String) -> @Sendable (Result<Void, StoreError>) -> Void {
        { result in self.results.withLock { $0[board] = result } }
    }

    var count: Int { results.withLock { $0.count } }

    var failures: [String: StoreError] {
        results.withLock { $0.compactMapValues { $0.failure } }
    }
}
