import Foundation

/// A webhook endpoint made through the API (docs/integrations.md#webhooks). Endpoints of the
/// webhooks file are not stored: the file is their record, and only their progress is kept.
public struct WebhookEndpointRecord: Sendable, Hashable {
    public var id: String
    /// An absolute http or https URL, checked by the server before it is stored.
    public var url: String
    /// `whsec_` and the base64 of the key (the Standard Webhooks form).
    public var secret: String
    /// The boards whose events it receives; nil: every board.
    public var boards: [String]?
    public var createdAt: Date

    public init(id: String, url: String, secret: String, boards: [String]?, createdAt: Date) {
        self.id = id
        self.url = url
        self.secret = secret
        self.boards = boards
        self.createdAt = createdAt
    }

    /// Whole milliseconds since 1970, as stored and written on the wire.
    public var createdAtMilliseconds: Int64 { Int64((createdAt.timeIntervalSince1970 * 1000).rounded(.down)) }

    public init(id: String, url: String, secret: String, boards: [String]?, createdAtMilliseconds: Int64) {
        self.init(id: id, url: url, secret: secret, boards: boards, createdAt: Date(timeIntervalSince1970: Double(createdAtMilliseconds) / 1000))
    }
}

/// A board created or deleted, kept in the store's outbox from the transaction that created or
/// deleted it: board events are not in any board's log, and must survive a crash all the same.
public struct WebhookNotice: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable {
        case created = "board.created"
        case deleted = "board.deleted"
    }

    /// Increasing in the order the notices were recorded (a store's sequence; gaps are possible).
    public var id: Int
    public var kind: Kind
    public var board: String
    /// Milliseconds since 1970.
    public var atMilliseconds: Int64

    public init(id: Int, kind: Kind, board: String, atMilliseconds: Int64) {
        self.id = id
        self.kind = kind
        self.board = board
        self.atMilliseconds = atMilliseconds
    }
}

/// What one endpoint has been delivered, durably: the last notice id and, per board, the last
/// seq its receiver acknowledged. A board without a cursor starts at seq 0 (it was created
/// after the endpoint was, or deleted and created again: deleting a board drops its cursors).
public struct WebhookProgress: Sendable, Hashable {
    /// Nil until the endpoint was started (`startWebhookProgress`).
    public var notices: Int?
    public var boards: [String: Int]
    /// The server's account of the last attempt (JSON text), so that every node lists it.
    public var status: String?

    public init(notices: Int?, boards: [String: Int], status: String?) {
        self.notices = notices
        self.boards = boards
        self.status = status
    }
}

/// Which cursor of an endpoint moves.
public enum WebhookStream: Sendable, Hashable {
    case notices
    case board(String)

    /// The key it is stored under: `notices`, or `board:` and the board's id.
    public var key: String {
        switch self {
        case .notices: "notices"
        case .board(let id): "board:" + id
        }
    }

    public init?(key: String) {
        if key == "notices" {
            self = .notices
        } else if key.hasPrefix("board:") {
            self = .board(String(key.dropFirst("board:".count)))
        } else {
            return nil
        }
    }
}

/// What a store adds for webhooks (every store of this package adopts it): the endpoints made
/// through the API, each endpoint's cursors, the outbox of board created / deleted notices
/// (written by `createBoard` and `deleteBoard` themselves, in their transaction), and the
/// lease that lets one node of those sharing the store deliver.
public protocol WebhookStore: AnyObject, Sendable {
    /// The endpoints made through the API, ordered by id.
    func webhookEndpoints(_ completion: @escaping @Sendable (Result<[WebhookEndpointRecord], StoreError>) -> Void)

    /// Stores a new endpoint: `.alreadyExists` when its id is taken.
    func addWebhookEndpoint(_ endpoint: WebhookEndpointRecord, _ completion: @escaping @Sendable (Result<Void, StoreError>) -> Void)

    /// Removes an endpoint and its progress: `.notFound` when there is none.
    func removeWebhookEndpoint(id: String, _ completion: @escaping @Sendable (Result<Void, StoreError>) -> Void)

    /// What `endpoint` (of the API or of the file) has been delivered.
    func webhookProgress(endpoint: String, _ completion: @escaping @Sendable (Result<WebhookProgress, StoreError>) -> Void)

    /// Starts `endpoint`'s progress once: its notice cursor at the newest notice, and the given
    /// boards' cursors (their seqs now, so that it receives what is committed from now on).
    /// Does nothing when it was started already.
    func startWebhookProgress(
        endpoint: String, boards: [String: Int], _ completion: @escaping @Sendable (Result<Void, StoreError>) -> Void)

    /// Records that `endpoint`'s receiver acknowledged `stream` up to `position`.
    func advanceWebhookCursor(
        endpoint: String, stream: WebhookStream, to position: Int, _ completion: @escaping @Sendable (Result<Void, StoreError>) -> Void)

    /// Keeps the server's account of `endpoint`'s last attempt (any text; the server writes JSON).
    func recordWebhookStatus(endpoint: String, status: String, _ completion: @escaping @Sendable (Result<Void, StoreError>) -> Void)

    /// The outbox's notices after `id`, oldest first, at most `limit`.
    func webhookNotices(after id: Int, limit: Int, _ completion: @escaping @Sendable (Result<[WebhookNotice], StoreError>) -> Void)

    /// Takes or renews the delivery lease for `seconds` for `node`: true when `node` holds it
    /// now. A store of one node (memory, SQLite) always grants it.
    func holdWebhookLease(node: String, seconds: Double, _ completion: @escaping @Sendable (Result<Bool, StoreError>) -> Void)
}

extension WebhookNotice {
    /// Now, in milliseconds since 1970: when a store records a notice.
    public static var nowMilliseconds: Int64 { Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)) }
}
