import Dispatch
import Glibc
import Synchronization
import TestSupport
import Testing

@testable import Sockets

/// What an idle connection holds (docs/benchmarks.md, "Idle members"): the TLS-only state
/// only under TLS, one close callback slot that still calls every callback, and the output
/// queue's storage given back once nothing waits to be written.
@Suite(.threadsOfTheirOwn) struct ConnectionFootprintTests {
    /// A filter that never finishes its handshake: enough to make a connection "under TLS".
    private final class IdleFilter: TransportFilter {
        var isEstablished: Bool { false }
        func start() {}
        func receive(_ bytes: UnsafeRawBufferPointer) {}
        func read(into buffer: UnsafeMutableRawBufferPointer) -> TransportRead { .needMore }
        func write(_ bytes: UnsafeRawBufferPointer) -> TransportFailure? { nil }
        func close() {}
        func takeOutput() -> ByteChunk? { nil }
        var hasBufferedInput: Bool { false }
    }

    private static let loops = IOLoopGroup(count: 1)

    /// What the close callbacks heard, from the loop.
    /// Runs `work` on the connection's loop and waits for it: what the test reads afterwards
    /// was written before the semaphore's signal.
    private func onLoop(_ connection: Connection, _ work: @escaping @Sendable () -> Void) -> Bool {
        let done = DispatchSemaphore(value: 0)
        connection.loop.execute {
            work()
            done.signal()
        }
        return done.wait(timeout: .now() + 10) == .success
    }

    /// One end of a socket pair as a connection (not started), and the other end.
    private func connection(filter: TransportFilter? = nil) throws -> (Connection, Socket) {
        var fds: [Int32] = [0, 0]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0 else { throw SocketError("socketpair") }
        let socket = Socket(fd: fds[0])
        try socket.setNonBlocking()
        return (Connection(socket: socket, loop: Self.loops.next(), remoteAddress: nil, filter: filter), Socket(fd: fds[1]))
    }

    /// The stored property `label` of `value`, as Swift's reflection shows it.
    private func stored(_ label: String, of value: Any) throws -> Any {
        try #require(Mirror(reflecting: value).children.first { $0.label == label }).value
    }

    /// Whether `value` is an optional holding nothing.
    private func isNil(_ value: Any) -> Bool {
        let mirror = Mirror(reflecting: value)
        return mirror.displayStyle == .optional && mirror.children.isEmpty
    }

    @Test(.runningTimeLimit(.minutes(1))) func theTLSStateIsMadeOnlyUnderTLS() throws {
        let (plain, plainPeer) = try connection()
        let (secure, securePeer) = try connection(filter: IdleFilter())
        defer {
            plain.abort()
            secure.abort()
            plainPeer.close()
            securePeer.close()
        }
        #expect(isNil(try stored("tls", of: plain)))
        #expect(!isNil(try stored("tls", of: secure)))
    }

    @Test(.runningTimeLimit(.minutes(1))) func theCloseObserverIsToldOnceAndALateOneAtOnce() throws {
        let (connection, peer) = try connection()
        defer { peer.close() }
        let observer = CloseRecorder()
        connection.observeClose(by: observer)
        connection.abort()
        #expect(observer.closed.wait(timeout: .now() + 10) == .success)
        #expect(observer.heard == ["aborted"])
        // Observing after the close: told at once, with the reason.
        let late = CloseRecorder()
        connection.observeClose(by: late)
        #expect(late.closed.wait(timeout: .now() + 10) == .success)
        #expect(late.heard == ["aborted"])
        #expect(observer.heard == ["aborted"], "told once")
    }

    @Test(.runningTimeLimit(.minutes(1))) func anIdleConnectionGivesTheOutputStorageBack() throws {
        let (connection, peer) = try connection()
        defer {
            connection.abort()
            peer.close()
        }
        let capacity = { () throws -> Int in
            let output = try self.stored("output", of: connection)
            return try #require(try self.stored("chunks", of: output) as? [ByteChunk]).capacity
        }
        #expect(
            onLoop(connection) {
                connection.sendOnLoop(ByteChunk([1, 2, 3]))
                connection.loop.flushPending()
            })
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 16, alignment: 1)
        defer { buffer.deallocate() }
        #expect(peer.read(into: buffer) == .transferred(3))
        // Written: the storage is kept for the next write (a busy connection writes again soon)...
        #expect(try capacity() > 0)
        // ...until the connection is idle and asked to give it back.
        #expect(onLoop(connection) { connection.releaseIdleStorage() })
        #expect(try capacity() == 0)
    }
}

/// Records each close it is told of.
private final class CloseRecorder: ConnectionCloseObserver {
    private let lines = Mutex<[String]>([])
    let closed = DispatchSemaphore(value: 0)

    func connection(_ connection: Connection, didCloseWith reason: Connection.CloseReason) {
        lines.withLock { $0.append("\(reason)") }
        closed.signal()
    }

    var heard: [String] { lines.withLock { $0 } }
}
