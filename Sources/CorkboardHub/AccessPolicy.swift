import CorkboardModel

/// Decides a client's role on a board from the token it presented (docs/protocol.md#3-joining,
/// docs/protocol.md#8-http-api).
public protocol AccessPolicy: Sendable {
    /// The role `token` grants on `board`; nil when the token is not valid there, which
    /// the hub answers with `forbidden` (and, for `hello`, close 1008).
    func role(token: String?, board: String) -> Role?
    /// Whether `token` may read `GET /metrics` (figures of every board).
    func mayReadMetrics(token: String?) -> Bool
}

/// Open mode, the default for local use: every client is `owner`, tokens are ignored.
public struct OpenAccess: AccessPolicy {
    public init() {}

    public func role(token: String?, board: String) -> Role? { .owner }
    public func mayReadMetrics(token: String?) -> Bool { true }
}
