import Glibc

/// A thin value over a socket file descriptor: each method is one system call, no state of its own.
/// Ownership of the descriptor (who closes it, when) belongs to `Listener` and `Connection`.
public struct Socket: Sendable, Hashable {
    public let fd: Int32

    public init(fd: Int32) { self.fd = fd }

    /// The result of a non-blocking read or write.
    public enum IOResult: Equatable {
        case transferred(Int)
        case endOfFile
        case wouldBlock
        case failed(Int32)
    }

    public enum AcceptResult {
        case accepted(Socket, SocketAddress)
        case wouldBlock
        case failed(Int32)
    }

    /// A new TCP socket for `family`, close-on-exec and non-blocking.
    public static func tcp(family: Int32) throws -> Socket {
        let fd = socket(family, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw SocketError("socket") }
        let socket = Socket(fd: fd)
        do {
            try socket.setCloseOnExec()
            try socket.setNonBlocking()
        } catch {
            socket.close()
            throw error
        }
        return socket
    }

    public func setNonBlocking() throws {
        let flags = fcntl(fd, F_GETFL)
        guard flags >= 0, fcntl(fd, F_SETFL, flags | O_NONBLOCK) == 0 else { throw SocketError("fcntl(O_NONBLOCK)") }
    }

    public func setCloseOnExec() throws {
        guard fcntl(fd, F_SETFD, FD_CLOEXEC) == 0 else { throw SocketError("fcntl(FD_CLOEXEC)") }
    }

    public func setOption(level: Int32, name: Int32, value: Int32, _ label: String) throws {
        var value = value
        guard setsockopt(fd, level, name, &value, socklen_t(MemoryLayout<Int32>.size)) == 0 else {
            throw SocketError("setsockopt(\(label))")
        }
    }

    /// Small writes (one WebSocket frame, one response) go out at once instead of waiting for Nagle.
    public func setNoDelay() throws {
        try setOption(level: Int32(IPPROTO_TCP), name: TCP_NODELAY, value: 1, "TCP_NODELAY")
    }

    public func bind(to address: SocketAddress) throws {
        var storage = address.storage
        let status = withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.bind(fd, $0, address.length) }
        }
        guard status == 0 else { throw SocketError("bind \(address)") }
    }

    public func listen(backlog: Int32) throws {
        guard Glibc.listen(fd, backlog) == 0 else { throw SocketError("listen") }
    }

    /// Starts a non-blocking connect; `EINPROGRESS` is success here (wait for writability).
    public func connect(to address: SocketAddress) throws {
        var storage = address.storage
        let status = withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, address.length) }
        }
        guard status == 0 || errno == EINPROGRESS else { throw SocketError("connect \(address)") }
    }

    /// Accepts one pending connection. Linux's `accept4` is not used: the new socket is made
    /// non-blocking and close-on-exec with `fcntl`, which works on every libc.
    public func accept() -> AcceptResult {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let client = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.accept(fd, $0, &length) }
        }
        guard client >= 0 else {
            let code = errno
            return code == EAGAIN || code == EWOULDBLOCK ? .wouldBlock : .failed(code)
        }
        let socket = Socket(fd: client)
        do {
            try socket.setCloseOnExec()
            try socket.setNonBlocking()
        } catch {
            socket.close()
            return .failed((error as? SocketError)?.code ?? EIO)
        }
        return .accepted(socket, SocketAddress(storage: storage, length: length))
    }

    public func read(into buffer: UnsafeMutableRawBufferPointer) -> IOResult {
        while true {
            let count = Glibc.read(fd, buffer.baseAddress, buffer.count)
            if count > 0 { return .transferred(count) }
            if count == 0 { return .endOfFile }
            if errno == EINTR { continue }
            return errno == EAGAIN || errno == EWOULDBLOCK ? .wouldBlock : .failed(errno)
        }
    }

    /// Writes from several buffers at once. `sendmsg` rather than `writev` so that
    /// `MSG_NOSIGNAL` applies: a peer that went away gives EPIPE, never SIGPIPE.
    public func send(_ vectors: UnsafeMutableBufferPointer<iovec>) -> IOResult {
        var message = msghdr()
        message.msg_iov = vectors.baseAddress
        message.msg_iovlen = vectors.count
        while true {
            let count = sendmsg(fd, &message, Int32(MSG_NOSIGNAL))
            if count >= 0 { return .transferred(count) }
            if errno == EINTR { continue }
            return errno == EAGAIN || errno == EWOULDBLOCK ? .wouldBlock : .failed(errno)
        }
    }

    public func send(_ buffer: UnsafeRawBufferPointer) -> IOResult {
        while true {
            let count = Glibc.send(fd, buffer.baseAddress, buffer.count, Int32(MSG_NOSIGNAL))
            if count >= 0 { return .transferred(count) }
            if errno == EINTR { continue }
            return errno == EAGAIN || errno == EWOULDBLOCK ? .wouldBlock : .failed(errno)
        }
    }

    public func localAddress() throws -> SocketAddress {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let status = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard status == 0 else { throw SocketError("getsockname") }
        return SocketAddress(storage: storage, length: length)
    }

    /// Half-closes: the peer reads what was sent, then EOF, and may still send to us.
    public func shutdownWrite() -> Bool {
        Glibc.shutdown(fd, Int32(SHUT_WR)) == 0
    }

    public func close() {
        _ = Glibc.close(fd)
    }
}
