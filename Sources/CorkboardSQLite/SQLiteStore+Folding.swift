import CorkboardStore
import Foundation
import GRDB

/// Folding a board's log outside the shared write (docs/storage.md, "Pruning"). An append's
/// transaction only decides that a fold is due (`Pruning.foldJob`, no reading); after it
/// committed, the fold runs on `foldQueue`:
///
/// 1. it reads, through `foldReader` (a second, read-only connection: in WAL it reads beside
///    the writer and never holds it up), the log's sizes when the rule says to measure, then
///    the snapshot and the events through the fold point, as stored;
/// 2. it decodes and applies them there (`StoredLogPiece.folded`, each event costing about
///    its own size);
/// 3. it hands the new snapshot to `queue`, which installs it in a short transaction of its
///    own, only if the board still has the epoch and snapshot seq the fold started from.
///
/// So the other boards' appends wait for no part of a fold but the install (a snapshot write
/// and a range delete). A fold that fails (a log that does not apply, an I/O error) leaves the
/// log as it was; it is not tried again until the board's snapshot or epoch changes
/// (`RunningFolds.failed`).
extension SQLiteStore {
    /// Runs on `foldQueue`; the board's fold was claimed (`folds.begin`) by the commit.
    func runFold(_ job: FoldJob, reader: DatabaseQueue) {
        // Closing: the install would be refused, so nothing is read for it.
        guard !isClosed else { return folds.end(job.board) }
        let read: (through: Int, piece: StoredLogPiece)?
        do {
            read = try reader.read { db in
                guard let head = try BoardTables.head(db, job.board), head.epoch == job.epoch, head.snapshotSeq == job.snapshotSeq,
                    let through = try writer.pruning.foldPoint(job, in: db), through > head.snapshotSeq
                else { return nil }
                return (through, try BoardTables.storedLog(db, board: job.board, after: head.snapshotSeq, through: through))
            }
        } catch {
            return folds.failed(job)
        }
        // Nothing to fold (the board changed since the fold was decided): a later append decides again.
        guard let read else { return folds.end(job.board) }
        guard let snapshot = try? read.piece.folded(board: job.board) else { return folds.failed(job) }
        queue.async { [self] in install(job, snapshot: snapshot, through: read.through) }
    }

    /// Runs on `queue`, in a transaction of its own.
    private func install(_ job: FoldJob, snapshot: Data, through: Int) {
        let installed: Result<BoardHead?, StoreError> = run(writing: true) { db in
            // Deleted, imported over or folded since the fold was decided: not this fold's log any more.
            guard let head = try BoardTables.head(db, job.board), head.epoch == job.epoch, head.snapshotSeq == job.snapshotSeq else {
                return .success(nil)
            }
            return .success(try writer.pruning.install(db, head, snapshot: snapshot, through: through))
        }
        // The appends made while the fold ran only tallied their bytes, and may have taken the
        // count past its bound again: ask now rather than wait for an append that may never
        // come. The claim passes to that fold. (Only after an install: a fold that failed
        // would fail again.)
        if case .success(let head?) = installed, let foldReader,
            let next = writer.pruning.foldJob(after: head, appendedBytes: 0, foldRunning: false)
        {
            foldQueue.async { [self] in runFold(next, reader: foldReader) }
        } else {
            folds.end(job.board)
        }
    }
}
