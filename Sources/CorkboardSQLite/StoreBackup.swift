import CorkboardModel
import CorkboardStore
import Foundation
import GRDB

/// What a backup file holds: every board with its seq, as `corkboard backup` and
/// `corkboard restore` print it.
public struct BackupContents: Sendable, Hashable {
    /// Every board, ordered by id.
    public var boards: [BoardSummary]
    /// The store's migrations the file had when it was read (before a restore migrated it).
    public var migrations: Int

    public init(boards: [BoardSummary], migrations: Int) {
        self.boards = boards
        self.migrations = migrations
    }
}

/// Whole-store backups of the SQLite store (`corkboard backup`, `corkboard restore`): SQLite's
/// online backup API (through GRDB's `backup(to:)`), from a read-only connection beside the
/// running server, so a backup needs no stop and holds the whole store as it was at one
/// instant: the read transaction the copy runs in sees one committed state of the WAL, and a
/// copy done in one step is never restarted by the server's writes.
public enum StoreBackup {
    /// Copies the database of the data folder `directory` into `output`: first into
    /// `output` + `.partial`, which is checked (`integrity_check`, a schema this version
    /// knows), turned into one self-contained file (rollback journal instead of WAL) and
    /// synced, then renamed over `output`. A failure leaves no partial file and `output` as
    /// it was.
    public static func backUp(directory: String, to output: String) throws(SQLiteStoreError) -> BackupContents {
        let source = directory + "/" + DatabaseOpening.fileName
        guard FileManager.default.fileExists(atPath: source) else { throw .missing(path: source) }
        try FileAccess.checkReadable(source)
        let partial = output + ".partial"
        try? FileManager.default.removeItem(atPath: partial)
        do throws(SQLiteStoreError) {
            var configuration = Configuration()
            configuration.label = "corkboard.sqlite (backup)"
            configuration.readonly = true
            configuration.busyMode = .timeout(5)
            let reader: DatabaseQueue
            do {
                reader = try DatabaseQueue(path: source, configuration: configuration)
            } catch {
                throw StorageFailure.openError(error, path: source)
            }
            defer { try? reader.close() }
            let copy = try makeFile(partial)
            do {
                // One step (pagesPerStep -1): the whole copy in one read transaction.
                try reader.backup(to: copy)
            } catch {
                try? copy.close()
                throw SQLiteStoreError.storage(path: source, reason: StorageFailure.reason(error, path: source))
            }
            let contents = try check(copy, path: partial)
            do {
                // A single file: no -wal or -shm beside it to forget when copying it.
                try copy.writeWithoutTransaction { db in
                    _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = DELETE")
                }
                try copy.close()
            } catch {
                throw SQLiteStoreError.storage(path: partial, reason: StorageFailure.reason(error, path: partial))
            }
            try syncAndRename(partial, to: output)
            return contents
        } catch {
            try? FileManager.default.removeItem(atPath: partial)
            throw error
        }
    }

    /// Puts a backup made by `backUp` into the data folder `directory`, which must be empty
    /// or missing: it takes the folder's lock (`.inUse` while a server holds it) and refuses a
    /// folder that already holds a database (`.notEmpty`). The file is checked as a backup is
    /// (a Corkboard database, undamaged, of a schema this version knows: `.newerSchema`
    /// otherwise) and migrated when older. Unless `keepEpochs`, every board gets a fresh
    /// epoch: the backup is older than what the server had when it stopped, so the seqs after
    /// it may have been given to other operations, and a client holding one must reload, not
    /// resume (docs/storage.md#backups).
    public static func restore(from file: String, into directory: String, keepEpochs: Bool) throws(SQLiteStoreError) -> BackupContents {
        guard FileManager.default.fileExists(atPath: file) else { throw .missing(path: file) }
        try FileAccess.checkReadable(file)
        try SQLiteStore.makeDirectory(directory)
        let lock = try DirectoryLock(directory: directory)
        defer { withExtendedLifetime(lock) {} }
        let target = directory + "/" + DatabaseOpening.fileName
        for leftover in [target, target + "-wal", target + "-journal"] where FileManager.default.fileExists(atPath: leftover) {
            throw .notEmpty(directory: directory, file: leftover)
        }
        let partial = target + ".partial"
        try? FileManager.default.removeItem(atPath: partial)
        do throws(SQLiteStoreError) {
            var configuration = Configuration()
            configuration.readonly = true
            let backup: DatabaseQueue
            do {
                backup = try DatabaseQueue(path: file, configuration: configuration)
            } catch {
                throw StorageFailure.openError(error, path: file)
            }
            defer { try? backup.close() }
            let contents = try check(backup, path: file)
            let copy = try makeFile(partial)
            do {
                try backup.backup(to: copy)
                try Schema.migrator.migrate(copy)
                if !keepEpochs {
                    try copy.write { db in
                        for id in try String.fetchAll(db, sql: "SELECT id FROM board") {
                            try db.execute(sql: "UPDATE board SET epoch = ? WHERE id = ?", arguments: [Epoch.make(), id])
                        }
                    }
                }
                try copy.writeWithoutTransaction { db in
                    _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = DELETE")
                }
                try copy.close()
            } catch {
                try? copy.close()
                throw SQLiteStoreError.storage(path: partial, reason: StorageFailure.reason(error, path: partial))
            }
            try syncAndRename(partial, to: target)
            return contents
        } catch {
            try? FileManager.default.removeItem(atPath: partial)
            throw error
        }
    }

    /// A new, empty database file (its directory must exist).
    private static func makeFile(_ path: String) throws(SQLiteStoreError) -> DatabaseQueue {
        do {
            return try DatabaseQueue(path: path)
        } catch {
            throw StorageFailure.openError(error, path: path)
        }
    }

    /// That `database` is an undamaged Corkboard database whose schema this version knows,
    /// and what it holds.
    private static func check(_ database: DatabaseQueue, path: String) throws(SQLiteStoreError) -> BackupContents {
        do {
            return try database.read { db in
                // The full check (indexes against tables too), not the store's quick_check at open:
                // a backup is read once, and the restore is the last chance to find damage.
                let problems = try String.fetchAll(db, sql: "PRAGMA integrity_check")
                if problems != ["ok"] {
                    throw SQLiteStoreError.corrupt(path: path, detail: problems.prefix(3).joined(separator: "; "))
                }
                let applied = try Schema.migrator.appliedIdentifiers(db)
                guard let first = Schema.migrator.migrations.first, applied.contains(first) else {
                    throw SQLiteStoreError.notCorkboard(path: path)
                }
                if try Schema.migrator.hasBeenSuperseded(db) { throw SQLiteStoreError.newerSchema(path: path) }
                return BackupContents(boards: try BoardTables.summaries(db), migrations: applied.count)
            }
        } catch {
            throw StorageFailure.openError(error, path: path)
        }
    }

    /// Makes the finished file durable under its final name: the file's data, the rename,
    /// and the directory entry, each synced, so a crash leaves the old file or the new one.
    private static func syncAndRename(_ partial: String, to final: String) throws(SQLiteStoreError) {
        let descriptor = open(partial, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .storage(path: partial, reason: FileAccess.errnoText(errno)) }
        let synced = fsync(descriptor)
        let syncError = errno
        close(descriptor)
        guard synced == 0 else { throw .storage(path: partial, reason: "fsync: \(FileAccess.errnoText(syncError))") }
        guard rename(partial, final) == 0 else {
            throw .storage(path: final, reason: "cannot rename \(partial) to it: \(FileAccess.errnoText(errno))")
        }
        let folder = (final as NSString).deletingLastPathComponent
        let directory = open(folder.isEmpty ? "." : folder, O_RDONLY | O_CLOEXEC)
        if directory >= 0 {
            _ = fsync(directory)
            close(directory)
        }
    }
}
