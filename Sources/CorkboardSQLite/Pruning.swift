import CorkboardModel
import CorkboardStore
import Foundation
import GRDB

/// Keeps each board's log and remembered answers bounded as `LogFolding` decides, without
/// making any one append expensive: the append's transaction only decides that a fold is due
/// (`foldJob`); the fold reads, applies and installs after it (`SQLiteStore+Folding.swift`).
///
/// Pruning never touches the epoch: the board's history is not replaced, its old end is
/// only forgotten (docs/protocol.md#1-the-model).
struct Pruning: Sendable {
    let folding: LogFolding

    init(_ retention: LogRetention) {
        folding = LogFolding(retention)
    }

    /// After an append of `appendedBytes` (the stored bytes of its events) took the board to
    /// `head`: the fold to run once the transaction committed, if one is due by the log's
    /// count, or its bytes are to be measured. While a fold of the board runs, none: the
    /// bytes are tallied for a later measure, and a count past the bound asks again at the
    /// next append.
    func foldJob(after head: BoardHead, appendedBytes: Int, foldRunning: Bool) -> FoldJob? {
        let step = folding.afterAppend(
            board: head.id, seq: head.seq, snapshotSeq: head.snapshotSeq, appendedBytes: appendedBytes, canMeasure: !foldRunning)
        guard !foldRunning, step != .keep else { return nil }
        return FoldJob(board: head.id, epoch: head.epoch, snapshotSeq: head.snapshotSeq, step: step)
    }

    /// The seq through which to fold for `job`, measuring the log's bytes first when the job
    /// says so; nil when nothing is to be folded.
    func foldPoint(_ job: FoldJob, in db: Database) throws -> Int? {
        switch job.step {
        case .keep:
            return nil
        case .fold(let through):
            return through
        case .measure(let byCount):
            let sizes = try BoardTables.storedSizesNewestFirst(db, board: job.board)
            return folding.foldThrough(byCount: byCount, snapshotSeq: job.snapshotSeq, newestFirst: sizes)
        }
    }

    /// Installs `snapshot`, the board folded through `seq`: deletes the folded events
    /// (keeping their opIds for the last `retained` seqs) and forgets the rejections decided
    /// at or before `seq`. Returns the updated head.
    func install(_ db: Database, _ head: BoardHead, snapshot: Data, through seq: Int) throws -> BoardHead {
        try BoardTables.updateSnapshot(db, head.id, encoded: snapshot, seq: seq)
        try BoardTables.keepOpIds(db, board: head.id, foldedThrough: seq, forgettingThrough: folding.opIdsForgottenThrough(seq: head.seq))
        try BoardTables.deleteEvents(db, board: head.id, through: seq)
        var head = head
        head.snapshotSeq = seq
        head.rejectionCount -= try BoardTables.forgetRejections(db, board: head.id, decidedThrough: seq)
        try BoardTables.updateAfterAppend(db, head)
        return head
    }

    /// Answers can pile up while the seq stands still (a client sending invalid operations):
    /// beyond the bound, the oldest are forgotten.
    func trimRejections(_ db: Database, _ head: BoardHead) throws -> BoardHead {
        let forget = folding.answersToForget(count: head.rejectionCount)
        guard forget > 0 else { return head }
        var head = head
        head.rejectionCount -= try BoardTables.forgetOldestRejections(db, board: head.id, count: forget)
        return head
    }
}
