import CorkboardModel
import CorkboardStore
import Foundation

/// When `LogFolding` says so after an append (its count past `retained + slack`, or, after
/// `byteSlack` bytes of this node's appends, its measured bytes past the budget), the node
/// whose append it was folds the oldest events into a new snapshot: it reads the snapshot
/// and the events through the fold point, applies them here (the model is Swift, not SQL),
/// and hands the result to `corkboard_fold_keeping_op_ids`, which installs it only if nobody
/// folded first, keeping the folded events' opIds (`folded_op`) for the last `retained` seqs.
/// Appends go on meanwhile (the fold runs after the append was answered); the fold takes the
/// board's row lock only for its own update.
///
/// Nothing of a fold runs where the other boards' statements wait (issue #31): its reads and
/// its install go through a connection of its own (`folder`), not the writer's pipeline,
/// which executes every board's statements one after the other; decoding and applying run on
/// `foldQueue`, not on the writer's queue, which answers them; and through `FoldingBoard`, so
/// each event costs about its own size, not the board's. `foldsRunning` stays on the writer's
/// queue: every step that touches it hops there.
extension PostgresStore {
    /// Runs on the writer's queue after an append of `events` answered the board's seqs.
    func foldIfDue(_ board: String, appended events: [CommittedEvent], seq: Int, snapshotSeq: Int) {
        let step = folding.afterAppend(
            board: board, seq: seq, snapshotSeq: snapshotSeq,
            appendedBytes: events.reduce(0) { $0 + $1.footprint }, canMeasure: !foldsRunning.contains(board))
        switch step {
        case .keep:
            break
        case .fold(let through):
            fold(board, from: snapshotSeq, through: through)
        case .measure(let byCount):
            let sizes = PostgresStatement(
                "SELECT seq, octet_length(op) AS op_bytes, op_id, coalesce(octet_length(author), 0) AS author_bytes FROM event"
                    + " WHERE board = $1 ORDER BY seq DESC", [board])
            runFolding(reading: [sizes]) { [self] result in
                let measured = (try? result.get()).flatMap { groups in try? Self.storedSizes(groups[0]) } ?? []
                guard let through = folding.foldThrough(byCount: byCount, snapshotSeq: snapshotSeq, newestFirst: measured) else { return }
                writer.queue.async { [self] in fold(board, from: snapshotSeq, through: through) }
            }
        }
    }

    /// The rows' seqs and stored bytes (`LogRetention.storedBytes`), in the rows' order.
    private static func storedSizes(_ rows: PostgresRows) throws(PostgresError) -> [(seq: Int, bytes: Int)] {
        try (0..<rows.count).map { row throws(PostgresError) in
            (
                seq: try rows.int(row, "seq"),
                bytes: LogRetention.storedBytes(
                    opJSONBytes: try rows.int(row, "op_bytes"), opId: try rows.string(row, "op_id"),
                    authorBytes: try rows.int(row, "author_bytes"))
            )
        }
    }

    /// Runs on the writer's queue (an append's completion); one fold per board at a time.
    func fold(_ board: String, from snapshotSeq: Int, through seq: Int) {
        guard foldsRunning.insert(board).inserted else { return }
        let reads = [
            PostgresStatement("SELECT snapshot, snapshot_seq FROM board WHERE id = $1", [board]),
            PostgresStatement(
                "SELECT seq, op_id, client, op, adjusted, committed_at, author FROM event WHERE board = $1 AND seq <= $2 ORDER BY seq",
                [board, String(seq)]),
        ]
        let ended: @Sendable () -> Void = { [self] in writer.queue.async { [self] in foldsRunning.remove(board) } }
        runFolding(reading: reads) { [self] result in
            guard let groups = try? result.get(), groups[0].count == 1, (try? groups[0].int(0, "snapshot_seq")) == snapshotSeq else {
                return ended() // folded meanwhile, gone, or unreadable
            }
            foldQueue.async { [self] in
                // On failure the log stays as it is and is folded at a later append.
                guard let encoded = try? Self.folded(board, snapshot: groups[0], events: groups[1]) else { return ended() }
                let install = PostgresStatement(
                    "SELECT corkboard_fold_keeping_op_ids($1, $2, $3, $4, $5)",
                    [board, String(snapshotSeq), String(seq), encoded, String(folding.retention.retained)])
                sendFolding([install, PostgresStatement("SELECT seq FROM board WHERE id = $1", [board])]) { [self] result in
                    writer.queue.async { [self] in
                        foldsRunning.remove(board)
                        // The appends made while the fold ran only tallied their bytes, and may
                        // have taken the count past its bound again: ask now rather than wait for
                        // an append that may never come. (Only after an install: a fold that
                        // failed would fail again.)
                        guard let groups = try? result.get(), (try? groups[0].bool(0, "corkboard_fold_keeping_op_ids")) == true,
                            let current = try? groups[1].int(0, "seq")
                        else { return }
                        foldIfDue(board, appended: [], seq: current, snapshotSeq: seq)
                    }
                }
            }
        }
    }

    /// Runs `reads` on one snapshot of the database, on the folds' connection.
    private func runFolding(reading reads: [PostgresStatement], _ completion: @escaping @Sendable (Result<[PostgresRows], PostgresError>) -> Void) {
        let group = [PostgresStatement("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")] + reads + [PostgresStatement("COMMIT")]
        sendFolding(group) { result in completion(result.map { Array($0.dropFirst().dropLast()) }) }
    }

    /// Sends a group on the folds' connection; its answer comes on that connection's queue.
    private func sendFolding(_ statements: [PostgresStatement], _ completion: @escaping @Sendable (Result<[PostgresRows], PostgresError>) -> Void) {
        guard !isClosed.load(ordering: .relaxed) else { return completion(.failure(.connection("the store is closed"))) }
        folder.execute(statements, completion)
    }

    /// The snapshot's JSON with the events applied in order (runs on `foldQueue`).
    private static func folded(_ board: String, snapshot: PostgresRows, events: PostgresRows) throws -> String {
        var folding = FoldingBoard(try JSONDecoder().decode(Board.self, from: Data(try snapshot.string(0, "snapshot").utf8)))
        for event in try Self.events(events, board: board) { try folding.apply(event.op) }
        return String(decoding: try JSONEncoder().encode(folding.board), as: UTF8.self)
    }
}
