import CorkboardModel
import CorkboardStore
import GRDB

/// Writes one `CommitBatch` inside the group's transaction, in a savepoint of its own, and
/// says whether its board's log is due for a fold, which runs after the transaction
/// (`SQLiteStore+Folding.swift`): no fold ever holds up the other boards of the group.
///
/// A batch that fails its own checks (unknown board, `expectedSeq` behind, events out of
/// order) is rolled back to its savepoint and answered on
/// its own; the other batches of the transaction still commit. A SQLite error (disk
/// full, I/O error, read-only) is thrown instead: it fails the whole transaction, which
/// the caller rolls back, so no batch of it is half-written.
struct BatchWriter {
    let pruning: Pruning
    let folds: RunningFolds

    /// The batch's answer and, when it is written and its board's log is due for a fold, the fold.
    func write(_ batch: CommitBatch, in db: Database) throws -> (Result<Void, StoreError>, FoldJob?) {
        var outcome: Result<FoldJob?, StoreError> = .success(nil)
        try db.inSavepoint {
            do {
                outcome = try apply(batch, in: db)
            } catch let error as StoredDataError {
                outcome = .failure(.unavailable("\(error)"))
            }
            if case .success = outcome { return .commit }
            return .rollback
        }
        switch outcome {
        case .success(let fold): return (.success(()), fold)
        case .failure(let error): return (.failure(error), nil)
        }
    }

    private func apply(_ batch: CommitBatch, in db: Database) throws -> Result<FoldJob?, StoreError> {
        if let problem = batch.seqOrderProblem { return .failure(.unavailable(problem)) }
        guard var head = try BoardTables.head(db, batch.board), batch.extends(epoch: head.epoch) else { return .failure(.notFound) }
        guard head.seq == batch.expectedSeq else { return .failure(.conflict(currentSeq: head.seq)) }
        let appendedBytes = try BoardTables.insertEvents(db, board: batch.board, batch.events)
        head.seq = batch.expectedSeq + batch.events.count
        head.rejectionCount += try BoardTables.remember(db, board: batch.board, batch.rejections, batch.noops, decidedSeq: head.seq)
        // Keep the listing's `locked` and `title` current without decoding the snapshot: the
        // last lock and the last board rename of the batch decide.
        for event in batch.events {
            if case .lock(let locked) = event.op { head.locked = locked }
        }
        if let title = batch.boardTitle { head.title = title }
        // The new seq first: the snapshot may then move up to it (snapshotSeq <= seq).
        try BoardTables.updateAfterAppend(db, head)
        let fold = pruning.foldJob(after: head, appendedBytes: appendedBytes, foldRunning: folds.contains(head.id))
        let counted = head.rejectionCount
        head = try pruning.trimRejections(db, head)
        if head.rejectionCount != counted { try BoardTables.updateAfterAppend(db, head) }
        return .success(fold)
    }
}
