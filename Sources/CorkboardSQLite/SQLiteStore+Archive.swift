import CorkboardModel
import CorkboardStore
import Dispatch
import GRDB

/// Archives in and out of the SQLite store: the store contract's `importBoard` (what
/// `corkboard import` and `PUT …/archive` call on every store), and synchronous `exportBoard`
/// and `importBoard` for code that holds this store (they wait for its queue).
extension SQLiteStore {
    /// The board's durable state, the board at its current seq (with its kept log when
    /// `history`), or nil when there is no such board. Works on a store opened with
    /// `openReadOnly` beside a running server.
    public func exportBoard(_ id: String, history: Bool = false) throws(SQLiteStoreError) -> BoardArchive? {
        dispatchPrecondition(condition: .notOnQueue(queue))
        let result: Result<BoardArchive?, StoreError> = queue.sync {
            run(writing: false) { db in try Self.archive(db, id, history: history) }
        }
        return try unwrap(result)
    }

    private static func archive(_ db: Database, _ id: String, history: Bool) throws -> Result<BoardArchive?, StoreError> {
        guard let head = try BoardTables.head(db, id) else { return .success(nil) }
        let snapshot = try BoardTables.snapshot(db, id)
        let events = try BoardTables.events(db, board: id, after: head.snapshotSeq)
        var board = FoldingBoard(snapshot)
        for event in events {
            do {
                try board.apply(event.op)
            } catch {
                return .failure(.unavailable("stored log of \(id) does not apply at \(event.seq): \(error)"))
            }
        }
        let kept = history ? ArchivedHistory(snapshot: snapshot, snapshotSeq: head.snapshotSeq, events: events) : nil
        return .success(BoardArchive(board: board.board, seq: head.seq, epoch: head.epoch, history: kept))
    }

    /// Puts an archived board into the store (server stopped: the caller holds the lock),
    /// replacing a board with the same id, as `ArchiveImport` plans it.
    ///
    /// Refused before anything is written (`invalidArchive`, naming the board): an archive
    /// with any of `validationProblems(limits:)` (`limits` are the server's, as `serve` is
    /// configured), or one without history over a board already at `Limits.maximumSeq`,
    /// which has no seq left to give the replacement.
    @discardableResult
    public func importBoard(_ archive: BoardArchive, limits: BoardSizeLimits) throws(SQLiteStoreError) -> ImportedBoard {
        dispatchPrecondition(condition: .notOnQueue(queue))
        let problems = archive.validationProblems(limits: limits)
        guard problems.isEmpty else { throw .invalidArchive(board: archive.board.id, problems: problems) }
        let result = queue.sync { run(writing: true) { db in try Self.install(db, archive, replacing: true) } }
        switch result {
        case .failure(.conflict(let current)):
            throw .invalidArchive(
                board: archive.board.id,
                problems: [
                    "the board here is at seq \(current); a replacement needs a seq above \(max(current, archive.seq)), past the last a board reaches (\(Limits.maximumSeq))"
                ])
        default: return try unwrap(result)
        }
    }

    public func importBoard(
        _ archive: BoardArchive, replacing: Bool, _ completion: @escaping @Sendable (Result<ImportedBoard, StoreError>) -> Void
    ) {
        perform(writing: true, completion) { db in try Self.install(db, archive, replacing: replacing) }
    }

    /// The plan written in the caller's transaction: the old board's rows go, the new ones come.
    private static func install(_ db: Database, _ archive: BoardArchive, replacing: Bool) throws -> Result<ImportedBoard, StoreError> {
        let existing = try BoardTables.head(db, archive.board.id)
        if existing != nil && !replacing { return .failure(.alreadyExists) }
        guard let plan = ArchiveImport(archive, existing: existing.map { ($0.seq, $0.epoch) }) else {
            return .failure(.conflict(currentSeq: existing?.seq ?? 0))
        }
        // Told to the webhooks as what it is: the board there goes (its endpoints' cursors with
        // it), a board comes, and its imported log is delivered from its start.
        if existing != nil {
            _ = try BoardTables.deleteBoard(db, archive.board.id)
            try WebhookTables.record(db, .deleted, board: archive.board.id)
        }
        try BoardTables.insertBoard(
            db, plan.board, seq: plan.seq, epoch: plan.epoch, snapshot: plan.snapshot, snapshotSeq: plan.snapshotSeq)
        _ = try BoardTables.insertEvents(db, board: plan.board.id, plan.events)
        try WebhookTables.record(db, .created, board: plan.board.id)
        return .success(plan.imported(replacedExisting: existing != nil))
    }

    private func unwrap<T>(_ result: Result<T, StoreError>) throws(SQLiteStoreError) -> T {
        switch result {
        case .success(let value): return value
        case .failure(.unavailable(let reason)): throw .storage(path: databasePath, reason: reason)
        case .failure(let error): throw .storage(path: databasePath, reason: error.description)
        }
    }
}
