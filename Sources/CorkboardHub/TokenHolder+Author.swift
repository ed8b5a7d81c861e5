/// Who a commit is by (its `by`, docs/protocol.md#outcomes). A signed token's subject is the
/// user id the app's backend vouched for, so it wins over any name the client gives; then the
/// name the operator gave the token-file grant; a grant without one, or open mode, names
/// nobody, and then the client's own name stands.
extension TokenHolder {
    /// What a commit over HTTP carries as `by` when the token names nobody.
    public static let anonymousHTTPAuthor = "http"

    /// The author of a WebSocket member's commits, who said `name` in its `hello`.
    public func author(named name: String) -> String {
        subject ?? grantName ?? name
    }

    /// The author of commits made over HTTP with this token.
    public var httpAuthor: String {
        subject ?? grantName ?? Self.anonymousHTTPAuthor
    }
}
