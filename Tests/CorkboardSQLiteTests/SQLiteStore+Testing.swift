import GRDB
import Synchronization

@testable import CorkboardSQLite

/// What this target's tests do to a store through its connection (internal, reached through
/// `@testable import`), on the store's queue like everything else it runs.
extension SQLiteStore {
    /// `PRAGMA max_page_count`: the database cannot grow past `pages`, which is how the
    /// tests make the "disk" full and then free it again.
    func setMaxPageCount(_ pages: Int) throws {
        try queue.sync {
            _ = try database.writeWithoutTransaction { try Int.fetchOne($0, sql: "PRAGMA max_page_count = \(pages)") }
        }
    }

    /// Holds the store's queue while `body` runs, so that everything `body` appends waits
    /// and goes into one transaction when the queue resumes.
    func withQueueHeld(_ body: () -> Void) {
        queue.suspend()
        body()
        queue.resume()
    }

    /// How many rows `table` (event, rejection) holds for `board`.
    func countRows(_ table: String, board: String) throws -> Int {
        try queue.sync {
            try database.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM \(table) WHERE board = ?", arguments: [board]) ?? 0 }
        }
    }

    /// A pragma's value as text (`synchronous`, `journal_mode`, `page_count`).
    func pragma(_ name: String) throws -> String? {
        try queue.sync { try database.read { try String.fetchOne($0, sql: "PRAGMA \(name)") } }
    }

    /// Starts counting the transactions the store commits from now on, as SQLite's commit
    /// hook reports them: how the tests see appends grouped, without a counter in the store.
    func countCommits() -> CommitCounter {
        let counter = CommitCounter()
        queue.sync {
            database.writeWithoutTransaction { $0.add(transactionObserver: counter, extent: .databaseLifetime) }
        }
        return counter
    }
}

/// Counts committed transactions (GRDB calls it on the store's queue; the mutex lets tests read).
final class CommitCounter: TransactionObserver, Sendable {
    private let commits = Mutex(0)
    var count: Int { commits.withLock { $0 } }

    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { false }
    func databaseDidChange(with event: DatabaseEvent) {}
    func databaseDidCommit(_ db: Database) { commits.withLock { $0 += 1 } }
    func databaseDidRollback(_ db: Database) {}
}
