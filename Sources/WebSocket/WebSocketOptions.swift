import Dispatch

/// Limits, timeouts and negotiation choices of a WebSocket endpoint.
public struct WebSocketOptions: Sendable {
    /// Messages (and frames) over this size fail the connection with 1009.
    public var maxMessageSize = 1 << 20
    /// Subprotocols the endpoint speaks, in order of preference (e.g. `corkboard.v1`).
    public var subprotocols: [String] = []
    /// When set, a browser page from any other origin is refused with 403. Clients that send
    /// no `Origin` (bots, tools) are not affected.
    public var allowedOrigins: Set<String>?
    /// Binary messages are refused with 1003 when false (Corkboard speaks JSON text only).
    public var acceptsBinary = true
    /// A connection silent for this long is pinged...
    public var pingInterval: DispatchTimeInterval = .seconds(30)
    /// ...and closed if nothing arrives within this time after the ping.
    public var pongTimeout: DispatchTimeInterval = .seconds(10)
    /// How long we wait for the peer's close frame after sending ours.
    public var closeTimeout: DispatchTimeInterval = .seconds(5)
    /// A compressing extension to negotiate (permessage-deflate), or nil for none.
    public var extensions: WebSocketExtensionNegotiator?

    public init() {}
}
