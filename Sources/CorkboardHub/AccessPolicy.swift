import CorkboardModel

/// Decides who a client is, and so its role on each board, from the token it presented
/// (docs/protocol.md#3-joining, docs/protocol.md#8-http-api).
public protocol AccessPolicy: Sendable {
    /// What `token` proves. `checkingLifetime` is false when the hub judges again the token of
    /// a member that joined while it was valid (after a reload): then only its signature or
    /// its grant counts, not its `exp`, since a joined connection outlives its token's expiry.
    func judge(token: String?, checkingLifetime: Bool) -> TokenJudgement
}

extension AccessPolicy {
    /// The role `token` grants on `board` now; nil when it grants nothing there.
    public func role(token: String?, board: String) -> Role? {
        judge(token: token, checkingLifetime: true).holder?.role(on: board)
    }

    /// Whether `token` may read `GET /metrics` (figures of every board).
    public func mayReadMetrics(token: String?) -> Bool {
        judge(token: token, checkingLifetime: true).holder?.mayReadMetrics ?? false
    }
}

/// The verdict on a presented token. Keeping "no token" and "a token that proves nothing"
/// apart from "a valid token without access" is what gives HTTP its 401 and 403, and the
/// WebSocket its `unauthorized` and `forbidden`.
public enum TokenJudgement: Sendable, Equatable {
    /// A valid token (or open mode): what it grants.
    case holder(TokenHolder)
    /// A token is needed and none was presented.
    case missing
    /// The token proves nothing: unknown, expired, badly signed or malformed; why, for the client.
    case refused(String)

    public var holder: TokenHolder? {
        if case .holder(let holder) = self { holder } else { nil }
    }
}

/// What a valid token grants, and who its holder is when a signed token says so.
public struct TokenHolder: Sendable, Equatable {
    public var role: Role
    public var boards: BoardScope
    public var mayReadMetrics: Bool
    /// The user id of a signed token's `sub`; nil for a token of the token file.
    public var subject: String?
    /// The display name of a signed token's `name`: shown to the others instead of the one in
    /// `hello`, so a client cannot pass for somebody else. Nil: the name in `hello` is shown.
    public var name: String?
    /// The `name` of a token-file grant: who the commits made with it are by (`author(named:)`).
    /// Not shown to the others instead of the `hello` name, since several people may share one
    /// grant's token; nil for a signed token and for a grant without a name.
    public var grantName: String?

    public init(role: Role, boards: BoardScope, mayReadMetrics: Bool, subject: String? = nil, name: String? = nil) {
        self.role = role
        self.boards = boards
        self.mayReadMetrics = mayReadMetrics
        self.subject = subject
        self.name = name
    }

    /// The role on `board`; nil when the token does not cover it.
    public func role(on board: String) -> Role? {
        boards.contains(board) ? role : nil
    }
}

/// The boards a token covers: all of them (written `"*"`), or a list of grants, each a board
/// id or a pattern (`BoardGrant`: `team-*` covers every id that begins with `team-`).
public enum BoardScope: Sendable, Hashable, ExpressibleByArrayLiteral {
    case all
    /// The grants as written; the readers of the token file and of signed tokens refuse any
    /// that `BoardGrant.problem(with:)` finds wrong.
    case listed(Set<String>)

    public init(arrayLiteral elements: String...) {
        self = .listed(Set(elements))
    }

    public func contains(_ board: String) -> Bool {
        switch self {
        case .all: true
        case .listed(let entries): entries.contains { BoardGrant(entry: $0).covers(board) }
        }
    }
}

/// One entry of a token's board list (docs/security.md#access-control): `sprint` grants the
/// board `sprint`; `team-*` every board whose id begins with `team-`; `wip\*` the one board
/// `wip*` (a backslash before the final `*` makes it part of the id). Compared as bytes, as
/// SQLite, PostgreSQL and JavaScript compare ids, never by Swift's Unicode equivalence.
public enum BoardGrant: Sendable, Hashable {
    case board(String)
    case prefix(String)

    public init(entry: String) {
        let bytes = Array(entry.utf8)
        let star = UInt8(ascii: "*"), backslash = UInt8(ascii: "\\")
        if bytes.last == star, bytes.dropLast().last == backslash {
            self = .board(String(decoding: bytes.dropLast(2) + [star], as: UTF8.self))
        } else if bytes.last == star {
            self = .prefix(String(decoding: bytes.dropLast(), as: UTF8.self))
        } else {
            self = .board(entry)
        }
    }

    public func covers(_ board: String) -> Bool {
        switch self {
        case .board(let id): board.utf8.elementsEqual(id.utf8)
        case .prefix(let prefix): board.utf8.starts(with: prefix.utf8)
        }
    }

    /// Why `entry` cannot be a grant, if it cannot: `*` alone (every board is written
    /// `"boards": "*"`, never implied by a list), an id that no board can have (`Limits.isValidBoardID`:
    /// one not in Unicode NFC would be granted under a spelling the server refuses), or an
    /// empty prefix.
    public static func problem(with entry: String) -> String? {
        if entry == "*" { return #"a lone "*" in a list is refused: write "boards": "*" for every board"# }
        switch BoardGrant(entry: entry) {
        case .board(let id) where !Limits.isValidBoardID(id):
            return "\(entry.debugDescription) is not a board id (\(Limits.idRule), without NUL)"
        case .prefix(let prefix) where prefix.utf8.contains(0) || !Limits.isNFC(prefix) || prefix.utf8.count >= Limits.maximumIDBytes:
            return "the pattern \(entry.debugDescription) must begin with 1…127 bytes of UTF-8 in Unicode NFC, without NUL"
        default:
            return nil
        }
    }
}

/// Open mode, the default for local use: every client is `owner`, tokens are ignored.
public struct OpenAccess: AccessPolicy {
    public init() {}

    public func judge(token: String?, checkingLifetime: Bool) -> TokenJudgement {
        .holder(TokenHolder(role: .owner, boards: .all, mayReadMetrics: true))
    }
}
