import Dispatch
import Logging
import Sockets

/// An HTTP/1.1 server: a TCP server whose connections speak HTTP to a router. With a
/// `transport` (TLS sessions) it is an HTTPS server; nothing above the socket layer changes.
public final class HTTPServer: Sendable {
    public let configuration: HTTPServerConfiguration
    private let tcp: TCPServer
    private let router: Router
    private let logger: Logger

    public init(
        router: Router, configuration: HTTPServerConfiguration = .init(), loops: IOLoopGroup,
        connectionLimits: Connection.Limits = .init(), counters: TrafficCounters = TrafficCounters(),
        transport: TransportFilterFactory? = nil, logger: Logger
    ) {
        self.router = router
        self.configuration = configuration
        self.logger = logger
        tcp = TCPServer(
            loops: loops, limits: connectionLimits, counters: counters, transport: transport,
            admission: configuration.admission, logger: logger)
    }

    /// Binds and starts serving. Returns the bound address (the real port when `port` is 0).
    @discardableResult
    public func start(host: String, port: UInt16) throws -> SocketAddress {
        let (router, configuration, logger) = (self.router, self.configuration, self.logger)
        return try tcp.start(host: host, port: port) { connection in
            HTTPServerConnection(connection: connection, router: router, configuration: configuration, logger: logger)
        } refuse: { connection, refusal in
            HTTPRefusalConnection(connection: connection, refusal: refusal)
        }
    }

    public var connectionCount: Int { tcp.connectionCount }

    /// Stops accepting, lets requests in flight finish, closes idle connections, and aborts
    /// whatever is still open after `grace`. `completion` runs when every connection is closed.
    public func shutdown(grace: DispatchTimeInterval = .seconds(10), completion: @escaping @Sendable () -> Void) {
        tcp.shutdown(grace: grace, completion: completion)
    }
}
