import CorkboardHub
import Dispatch
import WebSocket

/// A WebSocket is how a member reaches the hub in the server.
extension WebSocketConnection: MemberLink {
    public func send(text: String) {
        send(.text(text))
    }

    /// Framed straight from the bytes (a `welcome`): no `String`, no copy of it for the frame.
    public func send(utf8 text: [UInt8]) {
        send(textBytes: text)
    }

    /// Framed once (`WebSocketBroadcast`), then handed to each loop once for all its sockets.
    public static func broadcast(text: String, to links: [any MemberLink]) {
        // The hub hands a type its own links only.
        WebSocketConnection.send(WebSocketBroadcast(text: text), to: links.map { unsafeDowncast($0, to: WebSocketConnection.self) })
    }

    /// Sessions are called on the connection's loop, in the turn that read the message.
    public func holdWrites() -> (@Sendable () -> Void)? {
        connection.loop.isCurrent ? connection.loop.holdOutput() : nil
    }

    public var outputBound: Int { connection.limits.maxPendingOutput }

    public func close(_ code: MemberClose, reason: String) {
        close(WebSocketCloseCode(code), reason: reason)
    }

    public func schedule(after delay: DispatchTimeInterval, _ work: @escaping @Sendable () -> Void) {
        connection.loop.queue.asyncAfter(deadline: .now() + delay, execute: work)
    }
}

extension WebSocketCloseCode {
    /// The WebSocket close code of each of the hub's reasons to close (docs/protocol.md#close-codes).
    init(_ code: MemberClose) {
        switch code {
        case .policyViolation: self = .policyViolation
        case .goingAway: self = .goingAway
        case .serviceRestart: self = .serviceRestart
        case .tryAgainLater: self = .tryAgainLater
        // Of the range RFC 6455 §7.4.2 leaves to applications (docs/protocol.md#close-codes).
        case .tokenExpired: self = WebSocketCloseCode(rawValue: 4001)
        }
    }
}
