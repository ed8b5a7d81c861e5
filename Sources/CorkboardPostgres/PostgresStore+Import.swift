import CorkboardModel
import CorkboardStore
import Foundation

/// `importBoard`: read the board under the id, plan (`ArchiveImport`), then write the plan in
/// one transaction that holds only if the board is still the one read: a replaced board is
/// deleted by its epoch and seq, and the new row is a plain INSERT, so a board created,
/// replaced or appended to meanwhile fails the whole transaction on the board's primary key,
/// and nothing is written.
extension PostgresStore {
    public func importBoard(
        _ archive: BoardArchive, replacing: Bool, _ completion: @escaping @Sendable (Result<ImportedBoard, StoreError>) -> Void
    ) {
        let id = archive.board.id
        runReading([PostgresStatement("SELECT seq, epoch FROM board WHERE id = $1", [id])]) { [self] result in
            let existing: (seq: Int, epoch: String)?
            switch result {
            case .failure(let error): return completion(.failure(error))
            case .success(let groups):
                do throws(StoreError) {
                    existing =
                        groups[0].count == 1
                        ? try Self.decoding { () throws(PostgresError) in (try groups[0].int(0, "seq"), try groups[0].string(0, "epoch")) }
                        : nil
                } catch {
                    return completion(.failure(error))
                }
            }
            if existing != nil && !replacing { return completion(.failure(.alreadyExists)) }
            guard let plan = ArchiveImport(archive, existing: existing) else {
                return completion(.failure(.conflict(currentSeq: existing?.seq ?? 0)))
            }
            let statements: [PostgresStatement]
            do {
                statements = try Self.installing(plan, over: existing)
            } catch {
                return completion(.failure(.unavailable("the archive does not encode: \(error)")))
            }
            // A board changed since it was read fails the transaction (`.unavailable`, with
            // PostgreSQL's words: a duplicate key): nothing is written.
            run(statements) { result in
                completion(result.map { _ in plan.imported(replacedExisting: existing != nil) })
            }
        }
    }

    /// The transaction: for a replaced board, its leases and its row (log, answers and folded
    /// opIds cascade; every node told through `corkboard_replacements`, so that its room of the
    /// old board closes its members to join again), then
    /// the new row and its log, the events in one statement from a JSON array.
    private static func installing(_ plan: ArchiveImport, over existing: (seq: Int, epoch: String)?) throws -> [PostgresStatement] {
        let id = plan.board.id
        var statements: [PostgresStatement] = []
        if let existing {
            statements += [
                PostgresStatement("DELETE FROM lease WHERE board = $1", [id]),
                PostgresStatement(
                    """
                    WITH gone AS (DELETE FROM board WHERE id = $1 AND epoch = $2 AND seq = $3 RETURNING id, epoch)
                    SELECT pg_notify($4, id || ' ' || epoch) FROM gone
                    """,
                    [id, existing.epoch, String(existing.seq), replacementsChannel]),
                // Told to the webhooks as a deletion, as deleteBoard tells it: the endpoints'
                // cursors of the board go, its imported log is delivered from its start.
                PostgresStatement(
                    "INSERT INTO webhook_notice (kind, board, at) VALUES ($1, $2, $3::bigint)",
                    [WebhookNotice.Kind.deleted.rawValue, id, String(WebhookNotice.nowMilliseconds)]),
                PostgresStatement("DELETE FROM webhook_cursor WHERE stream = 'board:' || $1", [id]),
            ]
        }
        let snapshot = String(decoding: try JSONEncoder().encode(plan.snapshot), as: UTF8.self)
        statements.append(
            PostgresStatement(
                "INSERT INTO board (id, title, locked, seq, epoch, snapshot, snapshot_seq) VALUES ($1, $2, $3, $4, $5, $6, $7)",
                [
                    id, plan.board.title, plan.board.locked ? "true" : "false", String(plan.seq), plan.epoch, snapshot,
                    String(plan.snapshotSeq),
                ]))
        if !plan.events.isEmpty {
            let encoder = JSONEncoder()
            // The rows `corkboard_append` takes, read here by their keys.
            let rows = try plan.events.map { try AppendCall.EventRow($0, encoder: encoder) }
            statements.append(
                PostgresStatement(
                    """
                    INSERT INTO event (board, seq, op_id, client, op, adjusted, committed_at, author)
                    SELECT $1, e.seq, e."opId", e.client, e.op, e.adjusted, e.at, e."by"
                    FROM jsonb_to_recordset($2::jsonb)
                        AS e(seq bigint, "opId" text, client text, op text, adjusted boolean, at bigint, "by" text)
                    """,
                    [id, String(decoding: try encoder.encode(rows), as: UTF8.self)]))
        }
        statements.append(
            PostgresStatement(
                "INSERT INTO webhook_notice (kind, board, at) VALUES ($1, $2, $3::bigint)",
                [WebhookNotice.Kind.created.rawValue, id, String(WebhookNotice.nowMilliseconds)]))
        return statements
    }
}
