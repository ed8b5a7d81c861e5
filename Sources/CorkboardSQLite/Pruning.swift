import CorkboardModel
import GRDB

/// Keeps each board's log and remembered rejections bounded (spec §1: at least the last
/// `retained` events are kept), without making any one append expensive.
///
/// The log may grow to `retained + slack` events; the append that passes that folds the
/// oldest events into the snapshot (decode the snapshot, apply them, encode it) and deletes
/// them, leaving exactly `retained`. So a fold happens once every `slack` events and costs
/// one snapshot rewrite plus `slack` event applications: about one snapshot's size over
/// `slack` per appended event, on average. `slack` is capped (1,024) rather than being
/// `retained` itself (the classic 2× rule) so that one fold never stalls the writer, which
/// every board shares, for long: folding 100,000 events in one transaction would hold up
/// every other board's commits behind it.
///
/// Pruning never touches the epoch: the board's history is not replaced, its old end is
/// only forgotten (spec §1).
struct Pruning: Sendable {
    let retained: Int
    let slack: Int

    init(retained: Int) {
        precondition(retained > 0, "a store keeps at least one event")
        self.retained = retained
        slack = max(1, min(retained, 1_024))
    }

    /// The most events (and rejections) a board keeps between folds.
    var bound: Int { retained + slack }

    /// The seq through which the log should be folded now, if it should.
    func foldThrough(_ head: BoardHead) -> Int? {
        head.seq - head.snapshotSeq > bound ? head.seq - retained : nil
    }

    /// Folds the events through `seq` into the board's snapshot, deletes them, and forgets
    /// rejections decided before the kept window. Returns the updated head.
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
