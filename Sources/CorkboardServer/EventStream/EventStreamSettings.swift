import Dispatch

/// How event streams (`GET /api/boards/{id}/events`, docs/protocol.md#event-stream) keep
/// their readers informed while the board is quiet.
public struct EventStreamSettings: Sendable {
    /// A `: ping` comment this often: proxies that close idle connections keep the stream, and
    /// a reader that hears nothing for two periods knows the connection is dead.
    public var heartbeat: DispatchTimeInterval = .seconds(15)
    /// The `retry:` advice, in milliseconds: how long an EventSource waits before it reconnects.
    public var retryMilliseconds = 3000

    public init() {}
}
