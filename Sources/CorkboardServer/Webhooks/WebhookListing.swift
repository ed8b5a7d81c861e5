import CorkboardModel
import CorkboardStore
import Foundation

/// One endpoint as `GET /api/webhooks` lists it (docs/protocol.md#webhooks): what it is, where
/// it comes from, how far behind it is, and how its last attempt went. Never its secret
/// (`POST` answers that once, in `WebhookCreated`).
struct WebhookListing: Encodable, Sendable {
    var id: String
    var url: String
    /// Absent: every board.
    var boards: [String]?
    /// `file` (`--webhooks`, not deletable through the API) or `api`.
    var source: String
    /// Milliseconds since 1970; absent for the file's.
    var createdAt: Int64?
    /// Committed events not yet delivered, over the boards it receives.
    var backlog: Int
    /// Failed attempts in a row (0 when the last one succeeded or none was made).
    var failures: Int
    var lastAttemptAt: Int64?
    var lastStatus: Int?
    var lastError: String?
    var nextAttemptAt: Int64?

    init(_ endpoint: WebhookEndpoint, progress: WebhookProgress, boards summaries: [BoardSummary]) {
        id = endpoint.id
        url = endpoint.url.description
        boards = endpoint.boards.map { $0.sorted() }
        source = endpoint.origin.rawValue
        createdAt = endpoint.createdAt.map(WebhookStatus.milliseconds)
        // Not started yet: it will receive what is committed from its start on.
        backlog =
            progress.notices == nil
            ? 0
            : summaries.reduce(0) { sum, board in
                endpoint.receives(board: board.id) ? sum + max(0, board.seq - (progress.boards[board.id] ?? 0)) : sum
            }
        let status = WebhookStatus.from(progress.status)
        failures = status?.failures ?? 0
        lastAttemptAt = status?.lastAttemptAt
        lastStatus = status?.lastStatus
        lastError = status?.lastError
        nextAttemptAt = status?.nextAttemptAt
    }
}

/// `POST /api/webhooks`' answer: the endpoint as listed, and its secret, told this once.
struct WebhookCreated: Encodable, Sendable {
    var id: String
    var url: String
    var boards: [String]?
    var source: String
    var createdAt: Int64?
    var secret: String
}

/// `GET /api/webhooks`' answer: a page of endpoints, and the cursor of the next (absent on the last).
struct WebhookPage: Encodable, Sendable {
    var webhooks: [WebhookListing]
    var next: String?
}
