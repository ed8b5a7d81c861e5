import CorkboardModel
import CorkboardStore
import Foundation

/// The `BoardStore` calls, each one group of statements on the writer (one transaction).
extension PostgresStore {
    public func listBoards(_ completion: @escaping @Sendable (Result<[BoardSummary], StoreError>) -> Void) {
        run([PostgresStatement("SELECT id, title, seq FROM board ORDER BY id")]) { result in
            completion(
                result.flatMap { groups in
                    Result { () throws(PostgresError) in
                        let rows = groups[0]
                        return try (0..<rows.count).map { row throws(PostgresError) in
                            BoardSummary(id: try rows.string(row, "id"), title: try rows.string(row, "title"), seq: try rows.int(row, "seq"))
                        }
                    }.mapError { .unavailable("\($0)") }
                })
        }
    }

    public func createBoard(_ board: Board, epoch: String, _ completion: @escaping @Sendable (Result<Void, StoreError>) -> Void) {
        let snapshot: String
        do {
            snapshot = String(decoding: try JSONEncoder().encode(board), as: UTF8.self)
        } catch {
            return completion(.failure(.unavailable("the board does not encode: \(error)")))
        }
        // The board.created notice goes in the webhooks' outbox in the same statement: only if created.
        let insert = PostgresStatement(
            """
            WITH made AS (
                INSERT INTO board (id, title, locked, seq, epoch, snapshot, snapshot_seq) VALUES ($1, $2, $3, 0, $4, $5, 0)
                ON CONFLICT (id) DO NOTHING RETURNING id
            ), noted AS (
                INSERT INTO webhook_notice (kind, board, at) SELECT $6::text, id, $7::bigint FROM made
            )
            SELECT id FROM made
            """,
            [
                board.id, board.title, board.locked ? "true" : "false", epoch, snapshot, WebhookNotice.Kind.created.rawValue,
                String(WebhookNotice.nowMilliseconds),
            ])
        run([insert]) { result in
            completion(result.flatMap { $0[0].count == 1 ? .success(()) : .failure(.alreadyExists) })
        }
    }

    /// Events, answers and folded opIds go with the board row (`ON DELETE CASCADE`); the
    /// leases are not tied to it, so they go first, in the same transaction. The deleted
    /// board's id and epoch are announced to every node (`corkboard_deletes`, "<board>
    /// <epoch>"), sent by PostgreSQL only if the transaction commits.
    public func deleteBoard(_ id: String, _ completion: @escaping @Sendable (Result<Void, StoreError>) -> Void) {
        // The board.deleted notice goes in the webhooks' outbox, and the endpoints' cursors of the
        // board go (a board created anew under the id is delivered from seq 1): only if deleted.
        let statements = [
            PostgresStatement("DELETE FROM lease WHERE board = $1", [id]),
            PostgresStatement(
                """
                WITH gone AS (DELETE FROM board WHERE id = $1 RETURNING id, epoch),
                noted AS (INSERT INTO webhook_notice (kind, board, at) SELECT $3::text, id, $4::bigint FROM gone),
                forgotten AS (DELETE FROM webhook_cursor WHERE stream = 'board:' || $1 AND EXISTS (SELECT 1 FROM gone))
                SELECT pg_notify($2, id || ' ' || epoch) FROM gone
                """,
                [id, Self.deletesChannel, WebhookNotice.Kind.deleted.rawValue, String(WebhookNotice.nowMilliseconds)]),
        ]
        run(statements) { result in
            completion(result.flatMap { $0[1].count == 1 ? .success(()) : .failure(.notFound) })
        }
    }

    public func loadBoard(
        _ id: String, historyLimit: Int,
        _ completion: @escaping @Sendable (Result<StoredBoard?, StoreError>) -> Void
    ) {
        let reads = [
            PostgresStatement("SELECT epoch, snapshot, snapshot_seq FROM board WHERE id = $1", [id]),
            PostgresStatement("SELECT seq, op_id, client, op, adjusted, committed_at, author FROM event WHERE board = $1 ORDER BY seq", [id]),
            PostgresStatement("SELECT op_id, code, message, noop_seq FROM rejection WHERE board = $1 ORDER BY id", [id]),
            // The opIds of the last `historyLimit` commits that were folded away.
            PostgresStatement(
                "SELECT f.op_id, f.seq FROM folded_op f JOIN board b ON b.id = f.board WHERE f.board = $1 AND f.seq > b.seq - $2 ORDER BY f.seq",
                [id, String(max(0, historyLimit))]),
        ]
        runReading(reads) { result in
            completion(
                result.flatMap { groups in
                    Result { () throws(StoreError) in
                        try Self.storedBoard(id, groups[0], groups[1], groups[2], groups[3], historyLimit: historyLimit)
                    }
                })
        }
    }

    public func events(
        board id: String, after seq: Int, limit: Int,
        _ completion: @escaping @Sendable (Result<[CommittedEvent], StoreError>) -> Void
    ) {
        writer.queue.async { [self] in
            if let caught = caughtUp.removeValue(forKey: id), caught.after == seq, limit > 0 {
                return completion(.success(Array(caught.events.prefix(limit))))
            }
            readEvents(board: id, after: seq, limit: limit, completion)
        }
    }

    /// Drops the conflict's stash for `board` unless it already reaches `seq`. On the writer's queue.
    func forgetCaughtUp(_ board: String, before seq: Int) {
        guard let caught = caughtUp[board], caught.events.last.map({ $0.seq < seq }) ?? true else { return }
        caughtUp[board] = nil
    }

    private func readEvents(
        board id: String, after seq: Int, limit: Int,
        _ completion: @escaping @Sendable (Result<[CommittedEvent], StoreError>) -> Void
    ) {
        let reads = [
            PostgresStatement("SELECT snapshot_seq FROM board WHERE id = $1", [id]),
            PostgresStatement(
                "SELECT seq, op_id, client, op, adjusted, committed_at, author FROM event WHERE board = $1 AND seq > $2 ORDER BY seq LIMIT $3",
                [id, String(seq), String(max(0, limit))]),
        ]
        runReading(reads) { result in
            completion(
                result.flatMap { groups in
                    Result { () throws(StoreError) in
                        guard groups[0].count == 1 else { throw .notFound }
                        let snapshotSeq = try Self.decoding { () throws(PostgresError) in try groups[0].int(0, "snapshot_seq") }
                        guard seq >= snapshotSeq else {
                            throw .pruned(logStartsAfter: snapshotSeq)
                        }
                        return try Self.events(groups[1], board: id)
                    }
                })
        }
    }

    // MARK: Decoding rows

    static func storedBoard(
        _ id: String, _ board: PostgresRows, _ eventRows: PostgresRows, _ answerRows: PostgresRows, _ foldedRows: PostgresRows,
        historyLimit: Int
    ) throws(StoreError) -> StoredBoard? {
        guard board.count == 1 else { return nil }
        let (epoch, snapshotText, snapshotSeq) = try decoding { () throws(PostgresError) in
            (try board.string(0, "epoch"), try board.string(0, "snapshot"), try board.int(0, "snapshot_seq"))
        }
        var snapshot: FoldingBoard
        do {
            snapshot = FoldingBoard(try JSONDecoder().decode(Board.self, from: Data(snapshotText.utf8)))
        } catch {
            throw .unavailable("the snapshot of board \(id) does not decode: \(error)")
        }
        var events = try self.events(eventRows, board: id)
        // Events beyond the limit are folded into the returned snapshot, on a copy.
        let skipped = max(0, events.count - max(0, historyLimit))
        for event in events.prefix(skipped) {
            do {
                try snapshot.apply(event.op)
            } catch {
                throw .unavailable("stored log of \(id) does not apply at \(event.seq): \(error)")
            }
        }
        var folded: [FoldedCommit] = []
        try decoding { () throws(PostgresError) in
            for row in 0..<foldedRows.count {
                folded.append(FoldedCommit(opId: try foldedRows.string(row, "op_id"), seq: try foldedRows.int(row, "seq")))
            }
        }
        folded += events.prefix(skipped).map { FoldedCommit(opId: $0.opId, seq: $0.seq) }
        events.removeFirst(skipped)
        var rejections: [Rejection] = []
        var noops: [Noop] = []
        try decoding { () throws(PostgresError) in
            for row in 0..<answerRows.count {
                let opId = try answerRows.string(row, "op_id")
                let code = try answerRows.string(row, "code")
                if code == AppendCall.noopCode {
                    noops.append(Noop(opId: opId, seq: try answerRows.int(row, "noop_seq")))
                } else if let known = RejectionCode(rawValue: code) {
                    rejections.append(Rejection(opId: opId, code: known, message: try answerRows.string(row, "message")))
                } else {
                    throw .unexpected("a remembered answer of board \(id) has the unknown code \(code)")
                }
            }
        }
        return StoredBoard(
            snapshot: snapshot.board, snapshotSeq: snapshotSeq + skipped, epoch: epoch, events: events,
            rejections: rejections, noops: noops, foldedCommits: folded)
    }

    static func events(_ rows: PostgresRows, board: String) throws(StoreError) -> [CommittedEvent] {
        let decoder = JSONDecoder()
        var events: [CommittedEvent] = []
        events.reserveCapacity(rows.count)
        for row in 0..<rows.count {
            let (seq, opId, client, opText, adjusted, at) = try decoding { () throws(PostgresError) in
                (
                    try rows.int(row, "seq"), try rows.string(row, "op_id"), try rows.string(row, "client"),
                    try rows.string(row, "op"), try rows.bool(row, "adjusted"), try rows.optionalInt(row, "committed_at")
                )
            }
            do {
                let op = try decoder.decode(BoardOperation.self, from: Data(opText.utf8))
                events.append(
                    CommittedEvent(
                        seq: seq, opId: opId, client: client, op: op, adjusted: adjusted, at: at, by: rows.text(row, "author")))
            } catch {
                throw .unavailable("event \(seq) of board \(board) does not decode: \(error)")
            }
        }
        return events
    }

    static func decoding<T>(_ body: () throws(PostgresError) -> T) throws(StoreError) -> T {
        do {
            return try body()
        } catch {
            throw .unavailable("\(error)")
        }
    }
}
