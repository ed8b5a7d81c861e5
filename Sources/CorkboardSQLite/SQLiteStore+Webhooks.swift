import CorkboardStore
import Foundation
import GRDB

/// The webhook tables of migration v6, read and written on the store's queue like boards.
enum WebhookTables {
    /// Puts a board created or deleted in the outbox; a deletion also drops every endpoint's
    /// cursor of the board, so that a board created anew under its id is delivered from seq 1.
    static func record(_ db: Database, _ kind: WebhookNotice.Kind, board: String) throws {
        try db.execute(
            sql: "INSERT INTO webhook_notice (kind, board, at) VALUES (?, ?, ?)",
            arguments: [kind.rawValue, board, WebhookNotice.nowMilliseconds])
        if kind == .deleted {
            try db.execute(sql: "DELETE FROM webhook_cursor WHERE stream = ?", arguments: [WebhookStream.board(board).key])
        }
    }

    static func encodeBoards(_ boards: [String]?) -> String? {
        boards.map { String(decoding: (try? JSONEncoder().encode($0)) ?? Data("[]".utf8), as: UTF8.self) }
    }

    static func decodeBoards(_ text: String?) -> [String]? {
        text.map { (try? JSONDecoder().decode([String].self, from: Data($0.utf8))) ?? [] }
    }
}

extension SQLiteStore: WebhookStore {
    public func webhookEndpoints(_ completion: @escaping @Sendable (Result<[WebhookEndpointRecord], StoreError>) -> Void) {
        perform(writing: false, completion) { db in
            let rows = try Row.fetchAll(db, sql: "SELECT id, url, secret, boards, createdAt FROM webhook_endpoint ORDER BY id")
            return .success(
                rows.map { row in
                    WebhookEndpointRecord(
                        id: row["id"], url: row["url"], secret: row["secret"], boards: WebhookTables.decodeBoards(row["boards"]),
                        createdAtMilliseconds: row["createdAt"])
                })
        }
    }

    public func addWebhookEndpoint(_ endpoint: WebhookEndpointRecord, _ completion: @escaping @Sendable (Result<Void, StoreError>) -> Void) {
        perform(writing: true, completion) { db in
            try db.execute(
                sql: "INSERT INTO webhook_endpoint (id, url, secret, boards, createdAt) VALUES (?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING",
                arguments: [endpoint.id, endpoint.url, endpoint.secret, WebhookTables.encodeBoards(endpoint.boards), endpoint.createdAtMilliseconds])
            return db.changesCount == 1 ? .success(()) : .failure(.alreadyExists)
        }
    }

    public func removeWebhookEndpoint(id: String, _ completion: @escaping @Sendable (Result<Void, StoreError>) -> Void) {
        perform(writing: true, completion) { db in
            try db.execute(sql: "DELETE FROM webhook_endpoint WHERE id = ?", arguments: [id])
            guard db.changesCount == 1 else { return .failure(.notFound) }
            try db.execute(sql: "DELETE FROM webhook_cursor WHERE endpoint = ?", arguments: [id])
            try db.execute(sql: "DELETE FROM webhook_status WHERE endpoint = ?", arguments: [id])
            return .success(())
        }
    }

    public func webhookProgress(endpoint: String, _ completion: @escaping @Sendable (Result<WebhookProgress, StoreError>) -> Void) {
        perform(writing: false, completion) { db in
            var progress = WebhookProgress(notices: nil, boards: [:], status: nil)
            for row in try Row.fetchAll(db, sql: "SELECT stream, position FROM webhook_cursor WHERE endpoint = ?", arguments: [endpoint]) {
                switch WebhookStream(key: row["stream"]) {
                case .notices: progress.notices = row["position"]
                case .board(let board): progress.boards[board] = row["position"]
                case nil: continue
                }
            }
            progress.status = try String.fetchOne(db, sql: "SELECT status FROM webhook_status WHERE endpoint = ?", arguments: [endpoint])
            return .success(progress)
        }
    }

    public func startWebhookProgress(
        endpoint: String, boards: [String: Int], _ completion: @escaping @Sendable (Result<Void, StoreError>) -> Void
    ) {
        perform(writing: true, completion) { db in
            let started = try Bool.fetchOne(
                db, sql: "SELECT EXISTS (SELECT 1 FROM webhook_cursor WHERE endpoint = ? AND stream = ?)",
                arguments: [endpoint, WebhookStream.notices.key])
            guard started != true else { return .success(()) }
            let newest = try Int.fetchOne(db, sql: "SELECT max(id) FROM webhook_notice") ?? 0
            try db.execute(
                sql: "INSERT INTO webhook_cursor (endpoint, stream, position) VALUES (?, ?, ?)",
                arguments: [endpoint, WebhookStream.notices.key, newest])
            for (board, seq) in boards {
                try db.execute(
                    sql: "INSERT OR REPLACE INTO webhook_cursor (endpoint, stream, position) VALUES (?, ?, ?)",
                    arguments: [endpoint, WebhookStream.board(board).key, seq])
            }
            return .success(())
        }
    }

    public func advanceWebhookCursor(
        endpoint: String, stream: WebhookStream, to position: Int, _ completion: @escaping @Sendable (Result<Void, StoreError>) -> Void
    ) {
        perform(writing: true, completion) { db in
            try db.execute(
                sql: "INSERT OR REPLACE INTO webhook_cursor (endpoint, stream, position) VALUES (?, ?, ?)",
                arguments: [endpoint, stream.key, position])
            return .success(())
        }
    }

    public func recordWebhookStatus(endpoint: String, status: String, _ completion: @escaping @Sendable (Result<Void, StoreError>) -> Void) {
        perform(writing: true, completion) { db in
            try db.execute(sql: "INSERT OR REPLACE INTO webhook_status (endpoint, status) VALUES (?, ?)", arguments: [endpoint, status])
            return .success(())
        }
    }

    public func webhookNotices(after id: Int, limit: Int, _ completion: @escaping @Sendable (Result<[WebhookNotice], StoreError>) -> Void) {
        perform(writing: false, completion) { db in
            let rows = try Row.fetchAll(
                db, sql: "SELECT id, kind, board, at FROM webhook_notice WHERE id > ? ORDER BY id LIMIT ?", arguments: [id, max(0, limit)])
            return .success(
                rows.compactMap { row in
                    // A kind a later version wrote is not this version's to deliver.
                    guard let kind = WebhookNotice.Kind(rawValue: row["kind"]) else { return nil }
                    return WebhookNotice(id: row["id"], kind: kind, board: row["board"], atMilliseconds: row["at"])
                })
        }
    }

    /// One node has the database (the data folder is locked): it always delivers.
    public func holdWebhookLease(node: String, seconds: Double, _ completion: @escaping @Sendable (Result<Bool, StoreError>) -> Void) {
        completion(.success(true))
    }
}
