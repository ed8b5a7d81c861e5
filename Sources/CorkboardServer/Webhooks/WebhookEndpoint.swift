import CorkboardModel
import CorkboardStore
import Foundation

/// An endpoint as the deliverer uses it: checked URL and secret, and the boards it receives.
struct WebhookEndpoint: Sendable, Hashable {
    enum Origin: String, Sendable, Hashable {
        /// `--webhooks FILE`: changed by editing the file (and SIGHUP), not through the API.
        case file
        /// `POST /api/webhooks`, kept in the store.
        case api
    }

    var id: String
    var url: WebhookURL
    var secret: WebhookSecret
    /// Nil: every board.
    var boards: Set<String>?
    var origin: Origin
    var createdAt: Date?

    /// The ids the API gives out start with this; a file's ids may not.
    static let apiPrefix = "wh_"

    func receives(board: String) -> Bool { boards?.contains(board) ?? true }

    /// A stored endpoint; nil (logged by the caller) for one whose URL or secret this version refuses.
    init?(record: WebhookEndpointRecord) {
        guard let url = try? WebhookURL(record.url), let secret = WebhookSecret(record.secret) else { return nil }
        self.init(id: record.id, url: url, secret: secret, boards: record.boards.map(Set.init), origin: .api, createdAt: record.createdAt)
    }

    init(id: String, url: WebhookURL, secret: WebhookSecret, boards: Set<String>?, origin: Origin, createdAt: Date?) {
        self.id = id
        self.url = url
        self.secret = secret
        self.boards = boards
        self.origin = origin
        self.createdAt = createdAt
    }

    /// A new id for an endpoint made through the API: `wh_` and 16 hex digits.
    static func makeID() -> String { apiPrefix + Epoch.make() }

    /// Whether `id` may name an endpoint of the file: 1 to 64 of a-z, A-Z, 0-9, `-`, `_`,
    /// not starting with `wh_`.
    static func isValidFileID(_ id: String) -> Bool {
        (1...64).contains(id.utf8.count) && !id.hasPrefix(apiPrefix)
            && id.utf8.allSatisfy { byte in
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
            }
    }
}
