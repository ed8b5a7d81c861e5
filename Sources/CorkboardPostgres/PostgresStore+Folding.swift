import CorkboardModel
import CorkboardStore
import Foundation

/// When a board's log has grown past `retained + slack` events, the node whose append
/// passed the bound folds the oldest into a new snapshot: it reads the snapshot and the
/// events through the fold point, applies them here (the model is Swift, not SQL), and
/// hands the result to `corkboard_fold`, which installs it only if nobody folded first.
/// Appends go on meanwhile; the fold takes the board's row lock only for its own update.
extension PostgresStore {
    var pruning: LogRetention { LogRetention(retained: configuration.retainedEvents) }

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
                    "SELECT corkboard_fold($1, $2, $3, $4)", [board, String(snapshotSeq), String(seq), encoded])
                run([install]) { [self] _ in folding.remove(board) }
            } catch {
                // The log stays as it is and is folded at a later append.
                folding.remove(board)
            }
        }
    }
}
