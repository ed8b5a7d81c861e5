import Dispatch
import Logging
import Synchronization

/// A listener plus the connections it accepted, spread over a group of loops.
/// Knows nothing about protocols: `makeHandler` gives each connection its handler.
public final class TCPServer: Sendable {
    public let loops: IOLoopGroup
    public let limits: Connection.Limits
    /// Connections, bytes and slow consumers of everything this server accepted.
    public let counters: TrafficCounters
    private let logger: Logger
    /// The filter (TLS session) of each accepted connection; nil serves plain TCP.
    private let transport: TransportFilterFactory?
    /// Open connections counted against the limits in total and per client address.
    public let admission: ConnectionAdmission
    /// Turned-away connections still being answered; past `maxRefusalsInFlight` a flood is
    /// closed at once instead, so refusing costs a bounded number of descriptors.
    private let refusalsInFlight = Atomic<Int>(0)
    static let maxRefusalsInFlight = 256
    private let listener: Mutex<Listener?> = Mutex(nil)
    private let live = Mutex<Set<Connection>>([])
    /// Observes the close of the connections turned away; the server itself observes those it admitted.
    private let refusals = RefusedConnections()
    private let allClosed = Mutex<[@Sendable () -> Void]>([])

    public init(
        loops: IOLoopGroup, limits: Connection.Limits = .init(), counters: TrafficCounters = TrafficCounters(),
        transport: TransportFilterFactory? = nil, admission: AdmissionLimits = AdmissionLimits(), logger: Logger
    ) {
        self.loops = loops
        self.transport = transport
        self.admission = ConnectionAdmission(admission)
        self.limits = limits
        self.counters = counters
        self.logger = logger
        refusals.server = self
    }

    /// Binds and starts accepting. Returns the bound address (with the real port when `port` was 0).
    /// A connection over the admission limits gets the handler `refuse` makes (which answers
    /// and closes it), or is closed at once without one.
    @discardableResult
    public func start(
        host: String, port: UInt16,
        makeHandler: @escaping @Sendable (Connection) -> ConnectionHandler,
        refuse: (@Sendable (Connection, AdmissionRefusal) -> ConnectionHandler)? = nil
    ) throws -> SocketAddress {
        let (counters, transport, admission, logger) = (self.counters, self.transport, self.admission, self.logger)
        // One copy of the limits for every connection of this server.
        let limits = SharedLimits(self.limits)
        let listener = try Listener(host: host, port: port, logger: logger) { [loops, weak self] socket, remote in
            var filter: TransportFilter?
            if let transport {
                do {
                    filter = try transport()
                } catch {
                    // Never serve in the clear a connection that was meant to be encrypted.
                    logger.error("dropped a connection from \(remote): no TLS session: \(error)")
                    socket.close()
                    return
                }
            }
            let connection = Connection(
                socket: socket, loop: loops.next(), remoteAddress: remote, sharedLimits: limits, counters: counters, filter: filter)
            guard let self else {
                connection.abort()
                return
            }
            if let refusal = admission.admit(remote) {
                counters.connectionRefused()
                guard let refuse, self.refusalsInFlight.add(1, ordering: .relaxed).newValue <= Self.maxRefusalsInFlight else {
                    if refuse != nil { self.refusalsInFlight.subtract(1, ordering: .relaxed) }
                    connection.abort()
                    return
                }
                self.live.withLock { _ = $0.insert(connection) }
                connection.observeClose(by: self.refusals)
                connection.start(handler: refuse(connection, refusal))
                return
            }
            self.live.withLock { _ = $0.insert(connection) }
            connection.observeClose(by: self)
            connection.start(handler: makeHandler(connection))
        }
        self.listener.withLock { $0 = listener }
        return listener.address
    }

    public var connectionCount: Int { live.withLock { $0.count } }

    /// Stops accepting; connections already open carry on.
    public func stopAccepting() {
        let listener = self.listener.withLock { value in
            defer { value = nil }
            return value
        }
        listener?.stop()
    }

    /// Graceful shutdown: stop accepting, let every connection finish what it is doing
    /// (`ConnectionHandler.connectionShouldShutDown`), and abort those still open after `grace`.
    /// `completion` runs once every connection is closed.
    public func shutdown(grace: DispatchTimeInterval, completion: @escaping @Sendable () -> Void) {
        stopAccepting()
        let connections = live.withLock { connections in
            if connections.isEmpty { return nil as Set<Connection>? }
            allClosed.withLock { $0.append(completion) }
            return connections
        }
        guard let connections else {
            completion()
            return
        }
        for connection in connections { connection.requestShutdown() }
        DispatchQueue.global().asyncAfter(deadline: .now() + grace) { [weak self] in
            guard let self else { return }
            let stragglers = self.live.withLock { $0 }
            if !stragglers.isEmpty { self.logger.warning("aborting \(stragglers.count) connections at the shutdown deadline") }
            for connection in stragglers { connection.abort() }
        }
    }

    private func forget(_ connection: Connection) {
        let callbacks: [@Sendable () -> Void] = live.withLock { connections in
            connections.remove(connection)
            guard connections.isEmpty else { return [] }
            return allClosed.withLock { value in
                defer { value = [] }
                return value
            }
        }
        for callback in callbacks { callback() }
    }
}

extension TCPServer: ConnectionCloseObserver {
    /// An admitted connection closed: its admission is given back.
    public func connection(_ connection: Connection, didCloseWith reason: Connection.CloseReason) {
        if case .transportFailed(let failure) = reason {
            // A client that does not trust us, speaks plain HTTP, or offers only old versions:
            // counted in /metrics, and logged at debug only, as internet scanners make many.
            logger.debug("connection from \(connection.remoteAddress?.description ?? "?") closed: \(failure)")
        }
        admission.release(connection.remoteAddress)
        forget(connection)
    }

    /// A connection turned away closed: it took no admission, but a place among the refusals in flight.
    private final class RefusedConnections: ConnectionCloseObserver {
        /// Set once, in the server's `init`, before any connection is accepted.
        nonisolated(unsafe) weak var server: TCPServer?

        func connection(_ connection: Connection, didCloseWith reason: Connection.CloseReason) {
            server?.refusalsInFlight.subtract(1, ordering: .relaxed)
            server?.forget(connection)
        }
    }
}
