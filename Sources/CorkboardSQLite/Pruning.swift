import CorkboardModel
import CorkboardStore
import GRDB

/// Keeps each board's log and remembered rejections bounded by `LogRetention`'s rule,
/// without making any one append expensive.
///
/// Pruning never touches the epoch: the board's history is not replaced, its old end is
/// only forgotten (docs/protocol.md#1-the-model).
struct Pruning: Sendable {
    let retention: LogRetention
    /// Bytes appended to each board since its log was last measured.
    private let appended = ByteTally()

    init(_ retention: LogRetention) {
        self.retention = retention
    }

    var retained: Int { retention.retained }
    var bound: Int { retention.bound }

    /// The seq through which the log should be folded now, if it should: by its count, or
    /// by its bytes once `byteSlack` more were appended since they were last measured.
    /// `appendedBytes` are the stored bytes of the events just appended.
    func foldThrough(_ head: BoardHead, appendedBytes: Int, in db: Database) throws -> Int? {
        let byCount = retention.foldThrough(seq: head.seq, snapshotSeq: head.snapshotSeq)
        guard appended.add(appendedBytes, to: head.id) > retention.byteSlack else { return byCount }
        appended.reset(head.id)
        let byBytes = try BoardTables.foldPoint(db, board: head.id, keepingBytes: retention.byteBudget)
        return [byCount, byBytes].compactMap { $0 }.max()
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
        try BoardTables.keepOpIds(db, board: head.id, foldedThrough: seq, forgettingThrough: head.seq - retained)
        try BoardTables.deleteEvents(db, board: head.id, through: seq)
        var head = head
        head.snapshotSeq = seq
        head.rejectionCount -= try BoardTables.forgetRejections(db, board: head.id, decidedThrough: seq)
        return head
    }

    /// Rejections can pile up while the seq stands still (a client sending invalid
    /// operations): beyond the bound, the oldest are forgotten down to `retained`.
    func trimRejections(_ db: Database, _ head: BoardHead) throws -> BoardHead {
        guard head.rejectionCount > bound else { return head }
        var head = head
        head.rejectionCount -= try BoardTables.forgetOldestRejections(db, board: head.id, count: head.rejectionCount - retained)
        return head
    }
}
