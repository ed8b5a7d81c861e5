import CorkboardModel
import CorkboardStore
import Foundation

/// When a board's log has grown past `retained + slack` events, the node whose append
/// passed the bound folds the oldest into a new snapshot: it reads the snapshot and the
/// events through the fold point, applies them here (the model is Swift, not SQL), and
/// hands the result to `corkboard_fold_keeping_op_ids`, which installs it only if nobody folded
/// first, keeping the folded events' opIds (`folded_op`) for the last `retained` seqs.
/// Appends go on meanwhile; the fold takes the board's row lock only for its own update.
///
/// By bytes (`LogRetention`): after `byteSlack` bytes of its own appends to a board, a node
/// measures the board's log newest first in one query and folds through the newest event
/// that no longer fits in the budget, if that is beyond what the count asks.
extension PostgresStore {
    var pruning: LogRetention {
        LogRetention(retained: configuration.retainedEvents, byteBudget: configuration.historyByteBudget)
    }

    /// Runs on the writer's queue after an append of `events` answered the board's seqs:
    /// folds by count at once, or by bytes after measuring when enough was appended.
    func foldIfDue(_ board: String, appended events: [CommittedEvent], seq: Int, snapshotSeq: Int) {
        let byCount = pruning.foldThrough(seq: seq, snapshotSeq: snapshotSeq)
        appendedBytes[board, default: 0] += events.reduce(0) { $0 + $1.footprint }
        guard appendedBytes[board, default: 0] > pruning.byteSlack, !folding.contains(board) else {
            if let byCount { fold(board, from: snapshotSeq, through: byCount) }
            return
        }
        appendedBytes[board] = nil
        let measure = PostgresStatement(
            """
            SELECT seq FROM (
                SELECT seq, sum(octet_length(op) + octet_length(op_id) + $2) OVER (ORDER BY seq DESC) AS kept
                FROM event WHERE board = $1
            ) AS sized WHERE kept > $3 ORDER BY seq DESC LIMIT 1
            """, [board, String(LogRetention.rowOverhead), String(pruning.byteBudget)])
        runReading([measure]) { [self] result in
            let byBytes = (try? result.get()).flatMap { rows in rows[0].count == 1 ? try? rows[0].int(0, "seq") : nil }
            guard let through = [byCount, byBytes].compactMap({ $0 }).max(), through > snapshotSeq else { return }
            fold(board, from: snapshotSeq, through: through)
        }
    }

    /// True when no fold is running (tests wait for it).
    var foldingIsIdle: Bool { writer.queue.sync { folding.isEmpty } }

    /// Runs on the writer's queue (an append's completion); one fold per board at a time.
    func fold(_ board: String, from snapshotSeq: Int, through seq: Int) {
        guard folding.insert(board).inserted else { return }
        let reads = [
            PostgresStatement("SELECT snapshot, snapshot_seq FROM board WHERE id = $1", [board]),
            PostgresStatement(
                "SELECT seq, op_id, client, op, adjusted FROM event WHERE board = $1 AND seq <= $2 ORDER BY seq",
                [board, String(seq)]),
        ]
        runReading(reads) { [self] result in
            do {
                let groups = try result.get()
                guard groups[0].count == 1, try groups[0].int(0, "snapshot_seq") == snapshotSeq else {
                    folding.remove(board)  // folded meanwhile, or gone
                    return
                }
                var snapshot = try JSONDecoder().decode(Board.self, from: Data(try groups[0].string(0, "snapshot").utf8))
                for event in try Self.events(groups[1], board: board) { try snapshot.apply(event.op) }
                let encoded = String(decoding: try JSONEncoder().encode(snapshot), as: UTF8.self)
                let install = PostgresStatement(
                    "SELECT corkboard_fold_keeping_op_ids($1, $2, $3, $4, $5)",
                    [board, String(snapshotSeq), String(seq), encoded, String(pruning.retained)])
                run([install]) { [self] _ in folding.remove(board) }
            } catch {
                // The log stays as it is and is folded at a later append.
                folding.remove(board)
            }
        }
    }
}
