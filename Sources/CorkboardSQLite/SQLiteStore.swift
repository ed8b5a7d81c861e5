import CorkboardModel
import CorkboardStore
import Dispatch
import Foundation
import GRDB
import Synchronization

/// The embedded default store: one SQLite file, `DATA/corkboard.sqlite`, through GRDB.
///
/// **Confinement.** One connection (a GRDB `DatabaseQueue`, WAL) used only from one
/// serial `DispatchQueue`, `queue`: every call of the `BoardStore` protocol hops there and
/// answers from there, after its transaction committed. Nothing else touches the
/// connection, so there is no locking around SQL. The only state shared with callers'
/// threads is behind `Mutex`es (the appends waiting for the next transaction, the
/// lifecycle); everything else is immutable, which is why the class is `Sendable` as is.
///
/// Completions run on `queue` after the transaction, holding no lock and no GRDB access:
/// they may call the store again (that only queues more work). The synchronous methods
/// (`exportBoard`, `importBoard`, `close`) wait for `queue` and must not be called from a
/// completion.
///
/// See docs/storage.md for the schema, group commit, sync modes, pruning and the lock.
public final class SQLiteStore: BoardStore, Sendable {
    public let directory: String
    /// `directory/corkboard.sqlite`.
    public let databasePath: String
    public let syncMode: SyncMode
    /// Events kept per board at least; the log is folded into the snapshot beyond it.
    public let retainedEvents: Int
    /// About how many bytes of events each board's log keeps (`LogRetention`).
    public let historyByteBudget: Int
    /// Opened by `openReadOnly` (for export): every write answers an error.
    public let isReadOnly: Bool

    let queue: DispatchQueue
    let database: DatabaseQueue
    let commits = GroupCommit()
    let writer: BatchWriter
    /// The boards whose log is being folded (`SQLiteStore+Folding.swift`).
    let folds = RunningFolds()
    /// Where folds decode and apply, off `queue`.
    let foldQueue = DispatchQueue(label: "corkboard.sqlite.folds")
    /// The folds' own read-only connection (nil for a store opened read-only, which never folds).
    let foldReader: DatabaseQueue?
    private let lifecycle: Mutex<Lifecycle>

    private struct Lifecycle {
        var closed = false
        /// Held from open to close; released (descriptor closed) by dropping it.
        var lock: DirectoryLock?
    }

    /// Opens (creating it if needed) the store in `directory`, owning the directory until
    /// `close()` or deinit. Throws at once when another process holds the directory, or
    /// when the database cannot be read, trusted or written (see `SQLiteStoreError`).
    public convenience init(
        directory: String, syncMode: SyncMode = .full,
        retainedEvents: Int = BoardEngine.defaultHistoryCapacity,
        historyByteBudget: Int = BoardEngine.defaultHistoryByteBudget
    ) throws(SQLiteStoreError) {
        try self.init(
            directory: directory, syncMode: syncMode, retainedEvents: retainedEvents,
            historyByteBudget: historyByteBudget, maxPageCount: nil)
    }

    /// `maxPageCount` (`PRAGMA max_page_count`) lets tests fill the "disk" on purpose.
    init(
        directory: String, syncMode: SyncMode, retainedEvents: Int,
        historyByteBudget: Int = BoardEngine.defaultHistoryByteBudget, maxPageCount: Int?
    ) throws(SQLiteStoreError) {
        precondition(retainedEvents > 0, "a store keeps at least one event")
        try Self.makeDirectory(directory)
        let lock = try DirectoryLock(directory: directory)
        self.directory = directory
        databasePath = directory + "/" + DatabaseOpening.fileName
        database = try DatabaseOpening.openForWriting(path: databasePath, syncMode: syncMode, maxPageCount: maxPageCount)
        self.syncMode = syncMode
        self.retainedEvents = retainedEvents
        self.historyByteBudget = historyByteBudget
        foldReader = try DatabaseOpening.openFoldReader(path: databasePath)
        isReadOnly = false
        writer = BatchWriter(
            pruning: Pruning(LogRetention(retained: retainedEvents, byteBudget: historyByteBudget)), folds: folds)
        queue = DispatchQueue(label: "corkboard.sqlite")
        lifecycle = Mutex(Lifecycle(lock: lock))
    }

    private init(readingDirectory directory: String) throws(SQLiteStoreError) {
        self.directory = directory
        databasePath = directory + "/" + DatabaseOpening.fileName
        database = try DatabaseOpening.openForReading(path: databasePath)
        syncMode = .full
        retainedEvents = BoardEngine.defaultHistoryCapacity
        historyByteBudget = BoardEngine.defaultHistoryByteBudget
        isReadOnly = true
        foldReader = nil
        writer = BatchWriter(
            pruning: Pruning(LogRetention(retained: retainedEvents, byteBudget: historyByteBudget)), folds: folds)
        queue = DispatchQueue(label: "corkboard.sqlite.read-only")
        lifecycle = Mutex(Lifecycle(lock: nil))
    }

    /// Opens an existing store for reading only, without the directory's lock: for
    /// `corkboard export` while a server runs on the directory (WAL lets the reader in).
    public static func openReadOnly(directory: String) throws(SQLiteStoreError) -> SQLiteStore {
        try SQLiteStore(readingDirectory: directory)
    }

    /// Writes what is waiting, closes the connection and releases the directory. Later
    /// calls answer `.unavailable`. Do not call it from a completion of this store.
    public func close() {
        dispatchPrecondition(condition: .notOnQueue(queue))
        // Folds under way are installed first (on `queue`, so not from inside it); one that
        // the last appends start below finds the store closed and gives up.
        folds.waitUntilNoneRuns()
        queue.sync {
            // Appends handed over before the close were promised an answer: write them.
            var group = commits.takeAll()
            while !group.isEmpty {
                commit(group)
                group = commits.takeAll()
            }
            lifecycle.withLock { $0.closed = true }
        }
        // The reader goes before the writer, so that the writer's close is the last one and
        // checkpoints and removes the WAL.
        folds.waitUntilNoneRuns()
        try? foldReader?.close()
        queue.sync {
            try? database.close()
            lifecycle.withLock { $0.lock = nil }
        }
    }

    var isClosed: Bool { lifecycle.withLock { $0.closed } }

    static func makeDirectory(_ path: String) throws(SQLiteStoreError) {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw .cannotCreateDirectory(path: path, reason: "it exists and is not a directory") }
            return
        }
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw .cannotCreateDirectory(path: path, reason: (error as NSError).localizedDescription)
        }
    }

    // MARK: Running work on the queue

    /// Runs `body` with the connection on the store's queue and answers its result; SQLite
    /// errors and undecodable stored data become `.unavailable`.
    func perform<T: Sendable>(
        writing: Bool, _ completion: @escaping @Sendable (Result<T, StoreError>) -> Void,
        _ body: @escaping @Sendable (Database) throws -> Result<T, StoreError>
    ) {
        queue.async { [self] in
            completion(run(writing: writing, body))
        }
    }

    /// The same, synchronously, on the calling (non-queue) thread's behalf.
    func run<T>(writing: Bool, _ body: (Database) throws -> Result<T, StoreError>) -> Result<T, StoreError> {
        if isClosed { return .failure(.unavailable(SQLiteStoreError.closed(path: databasePath).description)) }
        if writing && isReadOnly {
            return .failure(.unavailable(SQLiteStoreError.openedReadOnly(path: databasePath).description))
        }
        do {
            if writing {
                var result: Result<T, StoreError>?
                try database.writeWithoutTransaction { db in
                    try db.inTransaction(.immediate) {
                        let outcome = try body(db)
                        result = outcome
                        if case .success = outcome { return .commit }
                        return .rollback
                    }
                }
                return result!
            }
            return try database.read(body)
        } catch let error as StoredDataError {
            return .failure(.unavailable(error.description))
        } catch {
            return .failure(StorageFailure.unavailable(error, path: databasePath))
        }
    }
}
