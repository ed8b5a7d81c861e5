import CorkboardModel
import Foundation

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
    /// A signed token's `exp`: a member is closed (4001) once it passes unrefreshed
    /// (docs/protocol.md#refreshing-a-token). Nil for a token that does not expire.
    public var expires: Date?
    /// A signed token's `iat` and `jti`, by which it is revoked (`TokenRevocations`).
    public var issuedAt: Date?
    public var tokenID: String?

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

    /// Why this scope cannot be granted, if it cannot: the first of its entries that
    /// `BoardGrant.problem(with:)` refuses.
    public var problem: String? {
        guard case .listed(let entries) = self else { return nil }
        return entries.sorted().lazy.compactMap(BoardGrant.problem(with:)).first
    }
}

/// Open mode, the default for local use: every client is `owner`, tokens are ignored.
public struct OpenAccess: AccessPolicy {
    public init() {}

    public func judge(token: String?, checkingLifetime: Bool) -> TokenJudgement {
        .holder(TokenHolder(role: .owner, boards: .all, mayReadMetrics: true))
    }
}
