import GRDB

@testable import CorkboardSQLite

/// A "full disk" for the server-level tests: the store's database capped with
/// `PRAGMA max_page_count`, run on the store's queue through its connection (internal,
/// reached through `@testable import`; the store itself carries no test hooks).
extension SQLiteStore {
    /// Pages the database holds now.
    func pageCount() throws -> Int {
        try queue.sync { try database.read { try Int.fetchOne($0, sql: "PRAGMA page_count") ?? 0 } }
    }

    /// The database cannot grow past `pages` (on this connection, until set again).
    func setMaxPageCount(_ pages: Int) throws {
        try queue.sync {
            _ = try database.writeWithoutTransaction { try Int.fetchOne($0, sql: "PRAGMA max_page_count = \(pages)") }
        }
    }
}
