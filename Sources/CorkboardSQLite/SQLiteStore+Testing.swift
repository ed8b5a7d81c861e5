import GRDB

/// Hooks for this module's tests only (internal, reached through `@testable import`).
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
}
