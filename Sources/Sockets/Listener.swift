import Dispatch
import Glibc
import Logging

/// A listening socket whose accept loop runs on its own serial queue.
///
/// When the process runs out of descriptors (EMFILE, ENFILE) or kernel memory, accepting
/// pauses briefly instead of spinning on a readable socket it cannot serve, and resumes by
/// itself once descriptors are free again: pending clients wait in the backlog meanwhile.
///
/// Confinement: mutable state is touched only on `queue`.
public final class Listener: @unchecked Sendable {
    public let socket: Socket
    public let address: SocketAddress
    private let queue = DispatchQueue(label: "corkboard.accept", qos: .userInitiated)
    private let source: DispatchSourceRead
    private let onAccept: @Sendable (Socket, SocketAddress) -> Void
    private let logger: Logger
    private var paused = false
    private var cancelled = false
    /// Out of descriptors: logged once per episode, not once per retry.
    private var exhausted = false
    /// How long accepting pauses after running out of descriptors.
    static let exhaustionBackoff = DispatchTimeInterval.milliseconds(50)

    /// Binds and listens. `host` may be a name or a numeric IPv4/IPv6 address; port 0 picks a free port.
    public init(
        host: String, port: UInt16, backlog: Int32 = 1024, logger: Logger,
        onAccept: @escaping @Sendable (Socket, SocketAddress) -> Void
    ) throws {
        var lastError: Error = AddressResolutionError(host: host, message: "no address")
        var bound: (Socket, SocketAddress)?
        for candidate in try SocketAddress.resolve(host: host, port: port, passive: true) {
            do {
                let socket = try Socket.tcp(family: candidate.family)
                do {
                    try socket.setOption(level: SOL_SOCKET, name: SO_REUSEADDR, value: 1, "SO_REUSEADDR")
                    if candidate.family == AF_INET6 {
                        // "::" serves IPv4 clients too.
                        try socket.setOption(level: Int32(IPPROTO_IPV6), name: IPV6_V6ONLY, value: 0, "IPV6_V6ONLY")
                    }
                    try socket.bind(to: candidate)
                    try socket.listen(backlog: backlog)
                    bound = (socket, try socket.localAddress())
                    break
                } catch {
                    socket.close()
                    throw error
                }
            } catch {
                lastError = error
            }
        }
        guard let (socket, address) = bound else { throw lastError }
        self.socket = socket
        self.address = address
        self.logger = logger
        self.onAccept = onAccept
        source = DispatchSource.makeReadSource(fileDescriptor: socket.fd, queue: queue)
        source.setEventHandler { [unowned self] in self.acceptPending() }
        source.setCancelHandler { socket.close() }
        source.resume()
    }

    private func acceptPending() {
        while !cancelled && !paused {
            switch socket.accept() {
            case .accepted(let client, let remote):
                if exhausted {
                    exhausted = false
                    logger.notice("accepting again: descriptors are available")
                }
                onAccept(client, remote)
            case .wouldBlock:
                return
            case .failed(let code) where code == EMFILE || code == ENFILE || code == ENOBUFS || code == ENOMEM:
                if !exhausted {
                    exhausted = true
                    logger.warning("accept paused: \(String(cString: strerror(code))); retrying every \(Self.exhaustionBackoff)")
                }
                pauseAccepting()
                return
            case .failed(let code) where code == ECONNABORTED || code == EINTR || code == EPROTO:
                continue // that one client gave up before we took it; take the next
            case .failed(let code):
                logger.error("accept failed: \(String(cString: strerror(code)))")
                pauseAccepting()
                return
            }
        }
    }

    private func pauseAccepting() {
        paused = true
        source.suspend()
        queue.asyncAfter(deadline: .now() + Self.exhaustionBackoff) { [self] in
            guard paused, !cancelled else { return }
            paused = false
            source.resume()
        }
    }

    /// Stops accepting and closes the listening socket. Already accepted connections are untouched.
    public func stop() {
        queue.sync {
            guard !cancelled else { return }
            cancelled = true
            if paused {
                paused = false
                source.resume()
            }
            source.cancel()
        }
    }
}
