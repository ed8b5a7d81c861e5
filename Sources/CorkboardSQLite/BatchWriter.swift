import CorkboardModel
import CorkboardStore
import GRDB

/// Writes one `CommitBatch` inside the group's transaction, in a savepoint of its own.
///
/// A batch that fails its own checks (unknown board, `expectedSeq` behind, events out of
/// order, a log that no longer applies) is rolled back to its savepoint and answered on
/// its own; the other batches of the transaction still commit. A SQLite error (disk
/// full, I/O error, read-only) is thrown instead: it fails the whole transaction, which
/// the caller rolls back, so no batch of it is half-written.
struct BatchWriter {
    let pruning: Pruning

    func write(_ batch: CommitBatch, in db: Database) throws -> Result<Void, StoreError> {
        var outcome: Result<Void, StoreError> = .success(())
        try db.inSavepoint {
            do {
                outcome = try apply(batch, in: db)
            } catch let error as StoredDataError {
                outcome = .failure(.unavailable("\(error)"))
            }
            if case .success = outcome { return .commit }
            return .rollback
        }
        return outcome
    }

    private func apply(_ batch: CommitBatch, in db: Database) throws -> Result<Void, StoreError> {
        if let problem = batch.seqOrderProblem { return .failure(.unavailable(problem)) }
        guard var head = try BoardTables.head(db, batch.board) else { return .failure(.notFound) }
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
        let counted = head.rejectionCount
        if let through = try pruning.foldThrough(head, appendedBytes: appendedBytes, in: db) {
            head = try pruning.fold(db, head, through: through)
        }
        head = try pruning.trimRejections(db, head)
        if head.rejectionCount != counted { try BoardTables.updateAfterAppend(db, head) }
        return .success(())
    }
}
