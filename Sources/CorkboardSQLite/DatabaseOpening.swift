import Foundation
import GRDB

/// Opens `corkboard.sqlite` and refuses, with a typed error naming the path, anything the
/// store should not run on: a file that is not a database or is damaged (`quick_check`),
/// an unreadable file, a database written by a newer corkboard, and (read-write only) a
/// database or directory that cannot be written. The write check is a real committed
/// write, made at open, so a server on a read-only or full disk refuses to start instead
/// of accepting joins and then answering every operation `unavailable`.
enum DatabaseOpening {
    static let fileName = "corkboard.sqlite"

    /// The read-write connection of a store: WAL, the requested sync mode, migrated.
    static func openForWriting(path: String, syncMode: SyncMode, maxPageCount: Int?) throws(SQLiteStoreError) -> DatabaseQueue {
        try FileAccess.checkReadable(path)
        var configuration = Configuration()
        configuration.label = "corkboard.sqlite"
        configuration.journalMode = .wal
        // Only an export (a reader) ever shares the file, and in WAL readers do not block
        // the writer; a short wait covers the moments a reader recovers the WAL.
        configuration.busyMode = .timeout(5)
        let database: DatabaseQueue
        do {
            database = try DatabaseQueue(path: path, configuration: configuration)
            try database.writeWithoutTransaction { db in
                // GRDB's WAL setup sets NORMAL; the store's choice comes after it.
                try db.execute(sql: "PRAGMA synchronous = \(syncMode.pragmaValue)")
                // A board row carries its snapshot (tens of KiB of overflow pages): with the
                // default 2 MiB cache, a hundred busy boards re-read those pages on every
                // batch. 64 MiB keeps them in memory (measured: 15× fewer page reads).
                try db.execute(sql: "PRAGMA cache_size = -65536")
                if let maxPageCount { _ = try Int.fetchOne(db, sql: "PRAGMA max_page_count = \(maxPageCount)") }
                try check(db, path: path)
            }
            try Schema.migrator.migrate(database)
            try database.write { db in
                try db.execute(
                    sql: "INSERT OR REPLACE INTO store_meta (key, value) VALUES ('opened', ?)",
                    arguments: ["\(ISO8601DateFormatter().string(from: Date())) pid \(getpid())"])
            }
        } catch {
            throw StorageFailure.openError(error, path: path)
        }
        return database
    }

    /// The read-only connection a read-write store folds through, beside its writer (in WAL a
    /// reader never blocks the writer). No checks: the writer's open made them.
    static func openFoldReader(path: String) throws(SQLiteStoreError) -> DatabaseQueue {
        var configuration = Configuration()
        configuration.label = "corkboard.sqlite (folds)"
        configuration.readonly = true
        configuration.busyMode = .timeout(5)
        do {
            return try DatabaseQueue(path: path, configuration: configuration)
        } catch {
            throw StorageFailure.openError(error, path: path)
        }
    }

    /// A read-only connection (export while a server runs: WAL lets a reader in beside
    /// the writer, and the lock is not needed because nothing is written).
    static func openForReading(path: String) throws(SQLiteStoreError) -> DatabaseQueue {
        guard FileManager.default.fileExists(atPath: path) else { throw .missing(path: path) }
        try FileAccess.checkReadable(path)
        var configuration = Configuration()
        configuration.label = "corkboard.sqlite (read-only)"
        configuration.readonly = true
        configuration.busyMode = .timeout(5)
        do {
            let database = try DatabaseQueue(path: path, configuration: configuration)
            try database.read { db in
                try check(db, path: path)
                guard try Schema.migrator.hasCompletedMigrations(db) else {
                    throw SQLiteStoreError.storage(path: path, reason: "the database is not fully set up (start the server on it once)")
                }
            }
            return database
        } catch {
            throw StorageFailure.openError(error, path: path)
        }
    }

    /// `quick_check` (structure, without the slower index cross-checks of
    /// `integrity_check`) and the schema's version.
    private static func check(_ db: Database, path: String) throws {
        let problems = try String.fetchAll(db, sql: "PRAGMA quick_check")
        if problems != ["ok"] {
            throw SQLiteStoreError.corrupt(path: path, detail: problems.prefix(3).joined(separator: "; "))
        }
        if try Schema.migrator.hasBeenSuperseded(db) {
            throw SQLiteStoreError.newerSchema(path: path)
        }
    }
}
