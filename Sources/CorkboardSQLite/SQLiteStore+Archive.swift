import CorkboardModel
import CorkboardStore
import Dispatch
import GRDB

/// What `importBoard` did.
public struct ImportedBoard: Sendable, Hashable {
    public var id: String
    public var seq: Int
    public var epoch: String
    /// True when a board with this id existed and was replaced.
    public var replacedExisting: Bool

    public init(id: String, seq: Int, epoch: String, replacedExisting: Bool) {
        self.id = id
        self.seq = seq
        self.epoch = epoch
        self.replacedExisting = replacedExisting
    }
}

/// `corkboard export` and `corkboard import`: synchronous, for the command line.
extension SQLiteStore {
    /// The board's durable state, the board at its current seq, or nil when there is no
    /// such board. Works on a store opened with `openReadOnly` beside a running server.
    public func exportBoard(_ id: String) throws(SQLiteStoreError) -> BoardArchive? {
        dispatchPrecondition(condition: .notOnQueue(queue))
        let result: Result<BoardArchive?, StoreError> = queue.sync {
            run(writing: false) { db in
                guard let head = try BoardTables.head(db, id) else { return .success(nil) }
                var board = FoldingBoard(try BoardTables.snapshot(db, id))
                for event in try BoardTables.events(db, board: id, after: head.snapshotSeq) {
                    do {
                        try board.apply(event.op)
                    } catch {
                        return .failure(.unavailable("stored log of \(id) does not apply at \(event.seq): \(error)"))
                    }
                }
                return .success(BoardArchive(board: board.board, seq: head.seq, epoch: head.epoch))
            }
        }
        return try unwrap(result)
    }

    /// Puts an archived board into the store (server stopped: the caller holds the lock).
    ///
    /// - A new id: the board is created at the archive's seq with the archive's epoch (a
    ///   fresh one when the archive has none), so clients of the exporting server that
    ///   hold (epoch, seq) can resume if nothing happened since.
    /// - An existing id: its snapshot, log and remembered rejections are replaced; it gets
    ///   a fresh epoch always and seq `max(old seq, archive seq) + 1`, so no client holding
    ///   the old history can mistake the new one for it (docs/protocol.md#1-the-model).
    ///
    /// Refused before anything is written (`invalidArchive`, naming the board): an archive
    /// with any of `validationProblems(limits:)` (`limits` are the server's, as `serve` is
    /// configured), or one over a board already at `Limits.maximumSeq`, which has no seq
    /// left to give the replacement.
    @discardableResult
    public func importBoard(_ archive: BoardArchive, limits: BoardSizeLimits) throws(SQLiteStoreError) -> ImportedBoard {
        dispatchPrecondition(condition: .notOnQueue(queue))
        let board = archive.board
        let problems = archive.validationProblems(limits: limits)
        guard problems.isEmpty else { throw .invalidArchive(board: board.id, problems: problems) }
        // The inner result is the import's own verdict; the outer one the store's.
        let result: Result<Result<ImportedBoard, SQLiteStoreError>, StoreError> = queue.sync {
            run(writing: true) { db in
                if let existing = try BoardTables.head(db, board.id) {
                    let highest = max(existing.seq, archive.seq)
                    guard highest < Limits.maximumSeq else {
                        return .success(
                            .failure(
                                .invalidArchive(
                                    board: board.id,
                                    problems: [
                                        "the board here is at seq \(existing.seq); a replacement needs a seq above \(highest), past the last a board reaches (\(Limits.maximumSeq))"
                                    ])))
                    }
                    let seq = highest + 1
                    let epoch = Self.freshEpoch(differentFrom: [existing.epoch, archive.epoch])
                    try BoardTables.replaceBoard(db, board, seq: seq, epoch: epoch)
                    return .success(.success(ImportedBoard(id: board.id, seq: seq, epoch: epoch, replacedExisting: true)))
                }
                let epoch = archive.epoch ?? Epoch.make()
                try BoardTables.insertBoard(db, board, seq: archive.seq, epoch: epoch)
                return .success(.success(ImportedBoard(id: board.id, seq: archive.seq, epoch: epoch, replacedExisting: false)))
            }
        }
        return try unwrap(result).get()
    }

    /// `Epoch.make()` is random; a collision with the epoch being replaced would let a
    /// stale client resume into the new history, so it is ruled out rather than trusted.
    private static func freshEpoch(differentFrom old: [String?]) -> String {
        while true {
            let epoch = Epoch.make()
            if !old.contains(epoch) { return epoch }
        }
    }

    private func unwrap<T>(_ result: Result<T, StoreError>) throws(SQLiteStoreError) -> T {
        switch result {
        case .success(let value): return value
        case .failure(.unavailable(let reason)): throw .storage(path: databasePath, reason: reason)
        case .failure(let error): throw .storage(path: databasePath, reason: error.description)
        }
    }
}
