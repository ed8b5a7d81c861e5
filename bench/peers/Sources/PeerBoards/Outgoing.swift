/// What a connection is asked to send.
public enum Outgoing: Sendable {
    case text(String)
    /// Send a close frame with this code and reason, then stop.
    case close(code: UInt16, reason: String)
}

/// Where a connection's outgoing messages go: each peer hands in a function that puts them
/// on the connection's own queue (an `AsyncStream` its framework's writer drains in order,
/// the usual shape of a chat server on Swift concurrency). The board room calls it from
/// inside the actor, so the order in which a room commits is the order every member sends.
public struct Outbox: Sendable {
    private let send: @Sendable (Outgoing) -> Void

    public init(_ send: @escaping @Sendable (Outgoing) -> Void) {
        self.send = send
    }

    func yield(_ message: Outgoing) { send(message) }
}

/// Close codes the peers use (RFC 6455 §7.4.1).
public enum CloseCode {
    public static let unsupportedData: UInt16 = 1003
    public static let policyViolation: UInt16 = 1008
}
