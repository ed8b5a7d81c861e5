import Dispatch
import Glibc

/// Opens outgoing TCP connections without blocking a loop: connect, wait for writability,
/// read `SO_ERROR`. (Host names are resolved with `getaddrinfo`, which may block briefly;
/// numeric addresses never do.)
public enum Connector {
    public struct Timeout: Error, CustomStringConvertible {
        public var description: String { "connection timed out" }
    }

    /// `completion` runs once, on `loop`, with a connection that is not started yet.
    /// `transport` makes the connection's filter (a TLS client session); its handshake begins
    /// when the connection is started.
    public static func connect(
        host: String, port: UInt16, loop: IOLoop, limits: Connection.Limits = .init(),
        timeout: DispatchTimeInterval = .seconds(10), transport: TransportFilterFactory? = nil,
        completion: @escaping @Sendable (Result<Connection, Error>) -> Void
    ) {
        let socket: Socket
        let address: SocketAddress
        do {
            guard let first = try SocketAddress.resolve(host: host, port: port).first else {
                throw AddressResolutionError(host: host, message: "no address")
            }
            address = first
            socket = try Socket.tcp(family: address.family)
            do {
                try socket.connect(to: address)
            } catch {
                socket.close()
                throw error
            }
        } catch {
            loop.execute { completion(.failure(error)) }
            return
        }
        let attempt = ConnectAttempt(
            socket: socket, address: address, loop: loop, limits: limits, transport: transport, completion: completion)
        attempt.start(timeout: timeout)
    }
}

/// One pending connect. Confinement: touched only on `loop.queue`.
private final class ConnectAttempt: @unchecked Sendable {
    let socket: Socket
    let address: SocketAddress
    let loop: IOLoop
    let limits: Connection.Limits
    let transport: TransportFilterFactory?
    let completion: @Sendable (Result<Connection, Error>) -> Void
    let source: DispatchSourceWrite
    var done = false
    var connected = false

    init(
        socket: Socket, address: SocketAddress, loop: IOLoop, limits: Connection.Limits, transport: TransportFilterFactory?,
        completion: @escaping @Sendable (Result<Connection, Error>) -> Void
    ) {
        self.transport = transport
        self.socket = socket
        self.address = address
        self.loop = loop
        self.limits = limits
        self.completion = completion
        source = DispatchSource.makeWriteSource(fileDescriptor: socket.fd, queue: loop.queue)
    }

    func start(timeout: DispatchTimeInterval) {
        source.setEventHandler { self.finish() }
        // Only once the watch source is gone (its cancel handler) may the descriptor get new
        // sources or be closed: a connection closed at once would otherwise close a
        // descriptor this source is still registered on, and a reused fd number would
        // deliver its events to a freed source.
        source.setCancelHandler {
            if self.connected {
                let filter: TransportFilter?
                do {
                    filter = try self.transport?()
                } catch {
                    self.socket.close()
                    return self.completion(.failure(error))
                }
                self.completion(
                    .success(
                        Connection(
                            socket: self.socket, loop: self.loop, remoteAddress: self.address, limits: self.limits, filter: filter)))
            } else {
                self.socket.close()
            }
        }
        source.resume()
        loop.queue.asyncAfter(deadline: .now() + timeout) { self.fail(Connector.Timeout()) }
    }

    private func finish() {
        guard !done else { return }
        var error: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        getsockopt(socket.fd, SOL_SOCKET, SO_ERROR, &error, &length)
        guard error == 0 else {
            fail(SocketError("connect \(address)", code: error))
            return
        }
        done = true
        connected = true
        source.cancel()
    }

    private func fail(_ error: Error) {
        guard !done else { return }
        done = true
        source.cancel()
        completion(.failure(error))
    }
}
