import Foundation
import Glibc
import Synchronization
import TestSupport
import Testing

@testable import Sockets

/// Records what a connection reads and how it ends, and runs `onRead` for each read. Touched
/// on the loop, read by tests.
private final class RecordingHandler: ConnectionHandler, @unchecked Sendable {
    private let state = Mutex<(bytes: [UInt8], drains: Int, reason: Connection.CloseReason?)>(([], 0, nil))
    nonisolated(unsafe) var onRead: (Connection) -> Void = { _ in }

    func connection(_ connection: Connection, didRead bytes: UnsafeRawBufferPointer) {
        state.withLock { $0.bytes += bytes }
        onRead(connection)
    }

    func connectionDidDrain(_ connection: Connection) { state.withLock { $0.drains += 1 } }

    func connectionDidClose(_ connection: Connection, reason: Connection.CloseReason) {
        state.withLock { $0.reason = reason }
    }

    var received: [UInt8] { state.withLock { $0.bytes } }
    var drains: Int { state.withLock { $0.drains } }
    var closeReason: Connection.CloseReason? { state.withLock { $0.reason } }
}

/// One end of a socket pair as a started `Connection` on `loop`, the other as a blocking descriptor.
private struct Pair {
    let connection: Connection
    let handler = RecordingHandler()
    let peer: Int32

    init(loop: IOLoop, counters: TrafficCounters? = nil, sendBuffer: Int32? = nil) throws {
        var fds: [Int32] = [0, 0]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0)
        let socket = Socket(fd: fds[0])
        try socket.setNonBlocking()
        if var size = sendBuffer {
            setsockopt(fds[0], SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        peer = fds[1]
        connection = Connection(socket: socket, loop: loop, remoteAddress: nil, counters: counters)
        connection.start(handler: handler)
    }

    func write(_ text: String) throws {
        let bytes = Array(text.utf8)
        try #require(Glibc.write(peer, bytes, bytes.count) == bytes.count)
    }

    /// Reads exactly `count` bytes from the peer's end.
    func read(_ count: Int) throws -> [UInt8] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while bytes.count < count {
            let got = Glibc.read(peer, &buffer, min(buffer.count, count - bytes.count))
            try #require(got > 0, "the peer's end read \(got)")
            bytes += buffer[0..<got]
        }
        return bytes
    }

    /// What the loop's epoll watches the connection for, asked on the loop.
    var watched: Epoll.Events { connection.loop.queue.sync { connection.watchedEvents } }
}

/// Holds `loop` busy until `release` is called, so that what happens meanwhile (peers
/// writing, other threads sending) reaches the loop's next turn together.
private func hold(_ loop: IOLoop) -> DispatchSemaphore {
    let release = DispatchSemaphore(value: 0)
    let held = DispatchSemaphore(value: 0)
    loop.queue.async {
        held.signal()
        release.wait()
    }
    held.wait()
    return release
}

/// The loop's one epoll instance: connections register and leave, wait for writability only
/// while their output is blocked, stop being watched while paused, and what a turn queues
/// leaves in one write per connection.
@Suite(.threadsOfTheirOwn, .runningTimeLimit(.minutes(2))) struct IOLoopReadinessTests {
    @Test func aConnectionIsRegisteredWhileOpenAndLeavesWhenClosed() throws {
        let loop = IOLoopGroup(count: 1).loops[0]
        let pair = try Pair(loop: loop)
        defer { close(pair.peer) }
        #expect(loop.queue.sync { loop.registeredConnections } == 1)
        #expect(pair.watched == [.readable])

        try pair.write("hello")
        #expect(eventually { pair.handler.received == Array("hello".utf8) })

        pair.connection.abort()
        #expect(eventually { pair.handler.closeReason == .aborted })
        #expect(loop.queue.sync { loop.registeredConnections } == 0)
        // The descriptor is closed: the peer reads the end of the stream.
        var byte: UInt8 = 0
        #expect(Glibc.read(pair.peer, &byte, 1) == 0)
    }

    @Test func aConnectionClosedEarlierInABatchIsNotTouchedAfter() throws {
        let loop = IOLoopGroup(count: 1).loops[0]
        let first = try Pair(loop: loop)
        let second = try Pair(loop: loop)
        defer {
            close(first.peer)
            close(second.peer)
        }
        // Whichever reads first aborts the other, whose readiness is in the same batch.
        first.handler.onRead = { _ in second.connection.abort() }
        second.handler.onRead = { _ in first.connection.abort() }
        #expect(loop.queue.sync { loop.registeredConnections } == 2)

        let release = hold(loop)
        try first.write("one")
        try second.write("two")
        release.signal()

        #expect(eventually { first.handler.closeReason != nil || second.handler.closeReason != nil })
        let readers = [first, second].filter { !$0.handler.received.isEmpty }
        let closed = [first, second].filter { $0.handler.closeReason == .aborted }
        #expect(readers.count == 1, "only the connection that read first saw its bytes")
        #expect(closed.count == 1)
        #expect(readers.first?.connection !== closed.first?.connection)
        #expect(loop.queue.sync { loop.registeredConnections } == 1)
    }

    @Test func writabilityIsWatchedOnlyWhileOutputIsBlocked() throws {
        let loop = IOLoopGroup(count: 1).loops[0]
        let counters = TrafficCounters()
        let pair = try Pair(loop: loop, counters: counters, sendBuffer: 4096)
        defer { close(pair.peer) }
        #expect(pair.watched == [.readable])

        // Far more than the socket pair holds: the first write is partial.
        let size = 1 << 20
        let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) }
        pair.connection.send(bytes)
        #expect(eventually { pair.watched == [.readable, .writable] })

        // The peer reads it all: the writes resume where they stopped, in order.
        #expect(try pair.read(size) == bytes)
        #expect(eventually { pair.handler.drains == 1 })
        #expect(pair.watched == [.readable])
        let reading = counters.reading
        #expect(reading.bytesOut == size)
        #expect(reading.sendsWritten == 1)
        #expect(reading.writeCalls > 1, "the socket took the send in pieces")
    }

    @Test func aPausedConnectionIsNotWatchedUntilItResumes() throws {
        let loop = IOLoopGroup(count: 1).loops[0]
        let pair = try Pair(loop: loop)
        defer { close(pair.peer) }
        loop.queue.sync { pair.connection.pauseReading() }
        #expect(pair.watched == [])

        try pair.write("later")
        // A turn of the loop runs (this block is queued behind it) without reading.
        loop.execute {}
        loop.queue.sync {}
        #expect(pair.handler.received.isEmpty)

        loop.queue.sync { pair.connection.resumeReading() }
        #expect(pair.watched == [.readable])
        #expect(eventually { pair.handler.received == Array("later".utf8) })
    }

    @Test func sendsAndRepliesOfOneTurnLeaveInOneWriteInOrder() throws {
        let loop = IOLoopGroup(count: 1).loops[0]
        let counters = TrafficCounters()
        let pair = try Pair(loop: loop, counters: counters)
        defer { close(pair.peer) }
        // Answers what it reads, as a member's move is answered.
        pair.handler.onRead = { connection in connection.sendOnLoop(ByteChunk(Array("ack;".utf8))) }

        let release = hold(loop)
        // Broadcasts from another thread, and a move from the peer, while the loop is busy.
        for text in ["one;", "two;", "three;"] { pair.connection.send(Array(text.utf8)) }
        try pair.write("move")
        release.signal()

        // The turn reads before it writes: the reply comes first, then the sends in order.
        let expected = Array("ack;one;two;three;".utf8)
        #expect(try pair.read(expected.count) == expected)
        loop.queue.sync {} // the flush counts its write after the bytes left
        let reading = counters.reading
        #expect(reading.sendsWritten == 4)
        #expect(reading.writeCalls == 1, "four sends in one sendmsg")
    }
}
