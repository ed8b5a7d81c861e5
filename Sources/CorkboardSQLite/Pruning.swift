import CorkboardModel
import CorkboardStore
import GRDB

/// Keeps each board's log and remembered answers bounded as `LogFolding` decides, inside the
/// append's transaction, without making any one append expensive.
///
/// Pruning never touches the epoch: the board's history is not replaced, its old end is
/// only forgotten (docs/protocol.md#1-the-model).
struct Pruning: Sendable {
    let folding: LogFolding

    init(_ retention: LogRetention) {
        folding = LogFolding(retention)
    }

    /// The seq through which the log should be folded now, if it should: by its count, or
    /// by its bytes once `byteSlack` more were appended since they were last measured.
    /// `appendedBytes` are the stored bytes of the events just appended.
    func foldThrough(_ head: BoardHead, appendedBytes: Int, in db: Database) throws -> Int? {
        switch folding.afterAppend(board: head.id, seq: head.seq, snapshotSeq: head.snapshotSeq, appendedBytes: appendedBytes) {
        case .keep:
            return nil
        case .fold(let through):
            return through
        case .measure(let byCount):
            let sizes = try BoardTables.storedSizesNewestFirst(db, board: head.id)
            return folding.foldThrough(byCount: byCount, snapshotSeq: head.snapshotSeq, newestFirst: sizes)
        }
    }

    /// Folds the events through `seq` into the board's snapshot, deletes them (keeping their
    /// opIds for the last `retained` seqs), and forgets rejections decided before the kept
    /// window. Returns the updated head.
    func fold(_ db: Database, _ head: BoardHead, through seq: Int) throws -> BoardHead {
        var board = try BoardTables.snapshot(db, head.id)
        for event in try BoardTables.events(db, board: head.id, after: head.snapshotSeq, through: seq) {
            do {
                try board.apply(event.op)
            } catch {
                throw StoredDataError(description: "event \(event.seq) of board \(head.id) does not apply to its snapshot: \(error)")
            }
        }
        try BoardTables.updateSnapshot(db, head.id, board, seq: seq)
        try BoardTables.keepOpIds(db, board: head.id, foldedThrough: seq, forgettingThrough: folding.opIdsForgottenThrough(seq: head.seq))
        try BoardTables.deleteEvents(db, board: head.id, through: seq)
        var head = head
        head.snapshotSeq = seq
        head.rejectionCount -= try BoardTables.forgetRejections(db, board: head.id, decidedThrough: seq)
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
