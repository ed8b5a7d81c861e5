import CorkboardStore
import Foundation

/// The webhook tables of migration 10. The delivery lease is one row (`webhook_lease`,
/// name `deliver`): the node that holds it delivers every endpoint, renews it while it lives,
/// and another node takes it over once it expires (a node that was killed stops renewing).
/// Endpoints made on any node are read from the table by the holder at its next round.
extension PostgresStore: WebhookStore {
    public func webhookEndpoints(_ completion: @escaping @Sendable (Result<[WebhookEndpointRecord], StoreError>) -> Void) {
        run([PostgresStatement("SELECT id, url, secret, boards, created_at FROM webhook_endpoint ORDER BY id")]) { result in
            completion(
                result.flatMap { groups in
                    Result { () throws(PostgresError) in
                        let rows = groups[0]
                        return try (0..<rows.count).map { row throws(PostgresError) in
                            WebhookEndpointRecord(
                                id: try rows.string(row, "id"), url: try rows.string(row, "url"), secret: try rows.string(row, "secret"),
                                boards: rows.text(row, "boards").map { (try? JSONDecoder().decode([String].self, from: Data($0.utf8))) ?? [] },
                                createdAtMilliseconds: Int64(try rows.int(row, "created_at")))
                        }
                    }.mapError { .unavailable("\($0)") }
                })
        }
    }

    public func addWebhookEndpoint(_ endpoint: WebhookEndpointRecord, _ completion: @escaping @Sendable (Result<Void, StoreError>) -> Void) {
        let boards = endpoint.boards.map { String(decoding: (try? JSONEncoder().encode($0)) ?? Data("[]".utf8), as: UTF8.self) }
        let insert = PostgresStatement(
            """
            INSERT INTO webhook_endpoint (id, url, secret, boards, created_at) VALUES ($1, $2, $3, $4, $5::bigint)
            ON CONFLICT (id) DO NOTHING RETURNING id
            """,
            [endpoint.id, endpoint.url, endpoint.secret, boards, String(endpoint.createdAtMilliseconds)])
        run([insert]) { result in completion(result.flatMap { $0[0].count == 1 ? .success(()) : .failure(.alreadyExists) }) }
    }

    public func removeWebhookEndpoint(id: String, _ completion: @escaping @Sendable (Result<Void, StoreError>) -> Void) {
        let statements = [
            PostgresStatement("DELETE FROM webhook_cursor WHERE endpoint = $1", [id]),
            PostgresStatement("DELETE FROM webhook_status WHERE endpoint = $1", [id]),
            PostgresStatement("DELETE FROM webhook_endpoint WHERE id = $1 RETURNING id", [id]),
        ]
        run(statements) { result in completion(result.flatMap { $0[2].count == 1 ? .success(()) : .failure(.notFound) }) }
    }

    public func webhookProgress(endpoint: String, _ completion: @escaping @Sendable (Result<WebhookProgress, StoreError>) -> Void) {
        let reads = [
            PostgresStatement("SELECT stream, position FROM webhook_cursor WHERE endpoint = $1", [endpoint]),
            PostgresStatement("SELECT status FROM webhook_status WHERE endpoint = $1", [endpoint]),
        ]
        runReading(reads) { result in
            completion(
                result.flatMap { groups in
                    Result { () throws(PostgresError) in
                        var progress = WebhookProgress(notices: nil, boards: [:], status: nil)
                        let cursors = groups[0]
                        for row in 0..<cursors.count {
                            switch WebhookStream(key: try cursors.string(row, "stream")) {
                            case .notices: progress.notices = try cursors.int(row, "position")
                            case .board(let board): progress.boards[board] = try cursors.int(row, "position")
                            case nil: continue
                            }
                        }
                        progress.status = groups[1].count == 1 ? groups[1].text(0, "status") : nil
                        return progress
                    }.mapError { .unavailable("\($0)") }
                })
        }
    }

    public func startWebhookProgress(
        endpoint: String, boards: [String: Int], _ completion: @escaping @Sendable (Result<Void, StoreError>) -> Void
    ) {
        // The board cursors are inserted only with the notice cursor: when that was there
        // already, the endpoint was started before and nothing changes.
        let cursors = String(decoding: (try? JSONEncoder().encode(boards)) ?? Data("{}".utf8), as: UTF8.self)
        let statements = [
            PostgresStatement(
                """
                WITH started AS (
                    INSERT INTO webhook_cursor (endpoint, stream, position)
                    SELECT $1, $2, coalesce((SELECT max(id) FROM webhook_notice), 0)
                    ON CONFLICT (endpoint, stream) DO NOTHING RETURNING endpoint
                )
                INSERT INTO webhook_cursor (endpoint, stream, position)
                SELECT started.endpoint, 'board:' || cursor.key, cursor.value::bigint FROM started, jsonb_each_text($3::jsonb) AS cursor
                ON CONFLICT (endpoint, stream) DO UPDATE SET position = excluded.position
                """,
                [endpoint, WebhookStream.notices.key, cursors])
        ]
        run(statements) { result in completion(result.map { _ in () }) }
    }

    public func advanceWebhookCursor(
        endpoint: String, stream: WebhookStream, to position: Int, _ completion: @escaping @Sendable (Result<Void, StoreError>) -> Void
    ) {
        let upsert = PostgresStatement(
            """
            INSERT INTO webhook_cursor (endpoint, stream, position) VALUES ($1, $2, $3::bigint)
            ON CONFLICT (endpoint, stream) DO UPDATE SET position = excluded.position
            """,
            [endpoint, stream.key, String(position)])
        run([upsert]) { result in completion(result.map { _ in () }) }
    }

    public func recordWebhookStatus(endpoint: String, status: String, _ completion: @escaping @Sendable (Result<Void, StoreError>) -> Void) {
        let upsert = PostgresStatement(
            "INSERT INTO webhook_status (endpoint, status) VALUES ($1, $2) ON CONFLICT (endpoint) DO UPDATE SET status = excluded.status",
            [endpoint, status])
        run([upsert]) { result in completion(result.map { _ in () }) }
    }

    public func webhookNotices(after id: Int, limit: Int, _ completion: @escaping @Sendable (Result<[WebhookNotice], StoreError>) -> Void) {
        let query = PostgresStatement(
            "SELECT id, kind, board, at FROM webhook_notice WHERE id > $1::bigint ORDER BY id LIMIT $2::bigint",
            [String(id), String(max(0, limit))])
        run([query]) { result in
            completion(
                result.flatMap { groups in
                    Result { () throws(PostgresError) in
                        let rows = groups[0]
                        var notices: [WebhookNotice] = []
                        for row in 0..<rows.count {
                            // A kind a later version wrote is not this version's to deliver.
                            guard let kind = WebhookNotice.Kind(rawValue: try rows.string(row, "kind")) else { continue }
                            notices.append(
                                WebhookNotice(
                                    id: try rows.int(row, "id"), kind: kind, board: try rows.string(row, "board"),
                                    atMilliseconds: Int64(try rows.int(row, "at"))))
                        }
                        return notices
                    }.mapError { .unavailable("\($0)") }
                })
        }
    }

    public func holdWebhookLease(node: String, seconds: Double, _ completion: @escaping @Sendable (Result<Bool, StoreError>) -> Void) {
        let take = PostgresStatement(
            """
            INSERT INTO webhook_lease (name, holder, expires_at) VALUES ('deliver', $1, now() + $2::double precision * interval '1 second')
            ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
            WHERE webhook_lease.holder = excluded.holder OR webhook_lease.expires_at < now()
            RETURNING holder
            """,
            [node, String(seconds)])
        run([take]) { result in completion(result.map { $0[0].count == 1 }) }
    }
}
