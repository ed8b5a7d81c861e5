import Foundation
import Glibc
import Synchronization

/// A loopback TCP proxy that breaks connections as a network failure does, for the tests of a
/// client that must reconnect: the client connects to `port` instead of the server's, and
/// `severAll()` resets every connection going through at that moment, both sides at once (an
/// RST each way: no close frame, no FIN), while new connections still pass, so the client's
/// reconnect comes through the proxy again.
///
/// Otherwise it passes everything on as it is: bytes both ways, an orderly close (FIN) as an
/// orderly close, a reset of one side as a reset of the other.
///
/// Each connection is relayed by two threads, one per direction, which wait in `poll` on their
/// socket and on the connection's wake pipe; one more thread accepts. `severAll()` and `stop()`
/// close the wake pipe, wait for both threads and close the sockets with SO_LINGER 0 (the RST).
/// `stop()` (or the deinit) ends every thread the proxy started before it returns; they are
/// named "px<port> accept", "px<port> up" and "px<port> down" in /proc/self/task. Every
/// descriptor is close-on-exec (the accepted sockets and the pipes from the moment after they
/// are made), so a server process a parallel test starts cannot hold a connection open after
/// the proxy closed it.
public final class SeveringProxy: Sendable {
    /// The port the proxy listens on, on 127.0.0.1.
    public let port: UInt16
    private let core: ProxyCore

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Listens on 127.0.0.1 on a port of the system's choosing, and relays each connection to
    /// `host` (numeric) on `targetPort`, connecting there when the connection is accepted.
    public init(to targetPort: UInt16, host: String = "127.0.0.1") throws {
        core = try ProxyCore(targetHost: host, targetPort: targetPort)
        port = core.port
    }

    deinit { core.stop() }

    /// Resets every connection through the proxy at this moment, both sides, and returns how
    /// many there were once they are closed. Connections accepted afterwards pass as usual.
    @discardableResult public func severAll() -> Int { core.severAll() }

    /// Stops listening (a new connection is refused), resets every connection through the
    /// proxy, and returns once all of its threads have ended. Called again, it does nothing.
    public func stop() { core.stop() }
}

/// The proxy's listener and connections, kept alive by its accepting thread until `stop()`.
private final class ProxyCore: Sendable {
    let port: UInt16
    private let targetHost: String
    private let targetPort: UInt16
    private let listener: Int32
    /// Closing `stopWrite` wakes the accepting thread (its `poll` sees the pipe end).
    private let stopRead: Int32
    private let stopWrite: Int32
    private let state = Mutex(State())
    private let acceptorEnded = DispatchSemaphore(value: 0)

    private struct State {
        var splices: [Splice] = []
        var stopped = false
    }

    init(targetHost: String, targetPort: UInt16) throws {
        self.targetHost = targetHost
        self.targetPort = targetPort
        let (listener, port) = try listenOnLoopback(backlog: 64)
        guard let (stopRead, stopWrite) = makePipe() else {
            close(listener)
            throw SeveringProxy.Failure(description: "pipe: \(String(cString: strerror(errno)))")
        }
        self.listener = listener
        self.stopRead = stopRead
        self.stopWrite = stopWrite
        self.port = port
        Thread { [self] in
            nameThisThread("px\(port) accept")
            acceptUntilStopped()
            acceptorEnded.signal()
        }.start()
    }

    func severAll() -> Int {
        let live = state.withLock { state in
            state.splices.removeAll { $0.isClosed }
            defer { state.splices = [] }
            return state.splices
        }
        for splice in live { splice.sever() }
        for splice in live { splice.waitUntilClosed() }
        return live.count
    }

    func stop() {
        let live: [Splice]? = state.withLock { state in
            guard !state.stopped else { return nil }
            state.stopped = true
            defer { state.splices = [] }
            return state.splices
        }
        guard let live else { return }
        close(stopWrite)
        acceptorEnded.wait()
        // The accepting thread is gone: nothing uses these any more.
        close(listener)
        close(stopRead)
        for splice in live { splice.sever() }
        for splice in live { splice.waitUntilClosed() }
    }

    private func acceptUntilStopped() {
        while true {
            var watched = [pollfd(fd: listener, events: Int16(POLLIN), revents: 0), pollfd(fd: stopRead, events: Int16(POLLIN), revents: 0)]
            guard poll(&watched, 2, -1) >= 0 else {
                if errno == EINTR { continue }
                return
            }
            if watched[1].revents != 0 { return }
            guard watched[0].revents != 0 else { continue }
            let client = accept(listener, nil, nil)
            guard client >= 0 else {
                // The connection may have gone before it was accepted; anything else is the
                // listener's end (a test sees its connection refused or unanswered).
                let code = errno
                if [EINTR, EAGAIN, EWOULDBLOCK, ECONNABORTED, EPROTO].contains(code) { continue }
                return
            }
            _ = fcntl(client, F_SETFD, FD_CLOEXEC)
            // The target refuses: so does the proxy, abruptly.
            guard let server = connectToTarget() else {
                resetAndClose(client)
                continue
            }
            setNoDelay(client)
            setNoDelay(server)
            guard let splice = Splice(client: client, server: server) else {
                resetAndClose(client)
                resetAndClose(server)
                continue
            }
            // Known before it relays a byte: a test that saw its bytes pass and then severs
            // must find it (under load, the relay threads ran before it was recorded).
            let kept = state.withLock { state in
                guard !state.stopped else { return false }
                state.splices.removeAll { $0.isClosed }
                state.splices.append(splice)
                splice.start(name: "px\(port)")
                return true
            }
            guard kept else {
                // Stopped meanwhile, so stop() did not see this one: its threads close it all.
                splice.start(name: "px\(port)")
                splice.sever()
                return splice.waitUntilClosed()
            }
        }
    }

    /// A blocking connect, bounded by a send timeout of 5 s; the socket is close-on-exec.
    private func connectToTarget() -> Int32? {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV
        var info: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(targetHost, String(targetPort), &hints, &info) == 0, let first = info else { return nil }
        defer { freeaddrinfo(first) }
        let server = socket(first.pointee.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard server >= 0 else { return nil }
        var time = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(server, SOL_SOCKET, SO_SNDTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        guard connect(server, first.pointee.ai_addr, first.pointee.ai_addrlen) == 0 else {
            close(server)
            return nil
        }
        // Back to no timeout: the relay waits in poll and sends only what the socket takes.
        time = timeval(tv_sec: 0, tv_usec: 0)
        setsockopt(server, SOL_SOCKET, SO_SNDTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        return server
    }
}

/// One connection through the proxy: the client's socket, the one to the target, and the two
/// threads that relay between them.
private final class Splice: Sendable {
    private let client: Int32
    private let server: Int32
    /// Closing the write end wakes both relaying threads (their `poll` sees the pipe end).
    private let wakeRead: Int32
    private let state: Mutex<State>
    private let ended = DispatchGroup()

    private struct State {
        /// -1 once closed.
        var wakeWrite: Int32
        /// Closed with RST rather than FIN.
        var severed = false
        var relaying = 0
        var closed = false
    }

    private enum End {
        case endOfFile
        case failed
        case woken
    }

    init?(client: Int32, server: Int32) {
        guard let (wakeRead, wakeWrite) = makePipe() else { return nil }
        self.client = client
        self.server = server
        self.wakeRead = wakeRead
        state = Mutex(State(wakeWrite: wakeWrite))
    }

    var isClosed: Bool { state.withLock { $0.closed } }

    func start(name: String) {
        state.withLock { $0.relaying = 2 }
        for (from, to, direction) in [(client, server, "up"), (server, client, "down")] {
            ended.enter()
            Thread { [self] in
                nameThisThread("\(name) \(direction)")
                relay(from: from, to: to)
                ended.leave()
            }.start()
        }
    }

    /// Wakes both threads; the last to stop closes the sockets with RST.
    func sever() {
        state.withLock { state in
            state.severed = true
            if state.wakeWrite >= 0 {
                close(state.wakeWrite)
                state.wakeWrite = -1
            }
        }
    }

    func waitUntilClosed() { ended.wait() }

    private func relay(from: Int32, to: Int32) {
        switch pump(from: from, to: to) {
        case .endOfFile:
            // An orderly close is passed on as one; the other direction goes on until its own.
            shutdown(to, Int32(SHUT_WR))
        case .failed:
            // A reset (or any error) on one side resets the other.
            sever()
        case .woken:
            break
        }
        let last = state.withLock { state in
            state.relaying -= 1
            return state.relaying == 0
        }
        if last { closeAll() }
    }

    private func closeAll() {
        let (severed, wakeWrite) = state.withLock { state in
            defer { state.wakeWrite = -1 }
            return (state.severed, state.wakeWrite)
        }
        if severed {
            resetAndClose(client)
            resetAndClose(server)
        } else {
            close(client)
            close(server)
        }
        close(wakeRead)
        if wakeWrite >= 0 { close(wakeWrite) }
        state.withLock { $0.closed = true }
    }

    /// Copies from `from` to `to` until an end, sending only what `to` takes without blocking
    /// so that a wake-up is never missed.
    private func pump(from: Int32, to: Int32) -> End {
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            guard wait(for: from, Int16(POLLIN)) else { return .woken }
            let count = buffer.withUnsafeMutableBytes { recv(from, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if count == 0 { return .endOfFile }
            if count < 0 {
                let code = errno
                if [EINTR, EAGAIN, EWOULDBLOCK].contains(code) { continue }
                return .failed
            }
            var sent = 0
            while sent < count {
                guard wait(for: to, Int16(POLLOUT)) else { return .woken }
                let written = buffer.withUnsafeBytes {
                    send(to, $0.baseAddress! + sent, count - sent, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT))
                }
                if written < 0 {
                    let code = errno
                    if [EINTR, EAGAIN, EWOULDBLOCK].contains(code) { continue }
                    return .failed
                }
                sent += written
            }
        }
    }

    /// Waits until `fd` is ready for `events` (or has an error: the next call says which);
    /// false once woken by `sever()`.
    private func wait(for fd: Int32, _ events: Int16) -> Bool {
        var watched = [pollfd(fd: fd, events: events, revents: 0), pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
        while true {
            guard poll(&watched, 2, -1) >= 0 else {
                if errno == EINTR { continue }
                return false
            }
            if watched[1].revents != 0 { return false }
            if watched[0].revents != 0 { return true }
        }
    }
}

/// A pipe whose two ends are close-on-exec.
private func makePipe() -> (read: Int32, write: Int32)? {
    var ends: [Int32] = [-1, -1]
    guard pipe(&ends) == 0 else { return nil }
    for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
    return (ends[0], ends[1])
}

/// Names the calling thread as /proc/self/task (and `top`, `gdb`) shows it: Foundation's
/// `Thread.name` does not reach the system on Linux. Linux keeps the first 15 bytes.
private func nameThisThread(_ name: String) {
    let file = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
    guard file >= 0 else { return }
    _ = Array(name.utf8.prefix(15)).withUnsafeBytes { write(file, $0.baseAddress, $0.count) }
    close(file)
}

/// Closes with SO_LINGER 0: the peer gets an RST, as when the network breaks.
private func resetAndClose(_ fd: Int32) {
    var option = linger(l_onoff: 1, l_linger: 0)
    setsockopt(fd, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
    close(fd)
}

/// Small messages go on at once, as they came, rather than waiting for Nagle.
private func setNoDelay(_ fd: Int32) {
    var on: Int32 = 1
    setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
}
