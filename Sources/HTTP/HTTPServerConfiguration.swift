import Dispatch
import Sockets

/// Timeouts and limits of the HTTP server.
public struct HTTPServerConfiguration: Sendable {
    public var parserLimits = HTTPRequestParser.Limits()
    /// A request head must arrive within this time from its first byte (and a new connection
    /// must start one within it): a client that trickles headers (slowloris) gets 408 and is closed.
    public var headerTimeout: DispatchTimeInterval = .seconds(10)
    /// A request body must arrive within this time from the end of its head.
    public var bodyTimeout: DispatchTimeInterval = .seconds(30)
    /// An idle keep-alive connection is closed after this time.
    public var idleTimeout: DispatchTimeInterval = .seconds(60)
    /// While this many response bytes are unwritten, no further pipelined request is read:
    /// a client that sends and never reads holds at most this much of our memory.
    public var pipelineOutputLimit = 256 * 1024
    /// A streamed body (`HTTPBodyStream`) is made no further ahead of the socket than this
    /// (nor than a quarter of the connection's output bound).
    public var streamAhead = 256 * 1024
    /// Connections held open at once, in total (default 20,000) and per client address (off;
    /// never applied to loopback). A connection over a limit is answered 503 and closed.
    public var admission = AdmissionLimits(maxConnections: 20_000)
    /// Where a line for each answered request goes; nil: nowhere.
    public var accessLog: AccessLog?
    /// Who the client of a request is when a proxy forwarded it: given the request (its
    /// `remoteAddress` filled), the client's address, or nil when the peer is the client. Set
    /// on every request before it is routed; nil (the default): every peer is its own client.
    /// Connection limits (`admission`) apply at accept, before any header, so they still
    /// count the peer.
    public var forwardedClient: (@Sendable (HTTPRequest) -> String?)?

    public init() {}
}
