import Foundation
import Glibc
import TestSupport
import Testing

@testable import Sockets

/// Answers the first bytes it reads with `answer` and closes, leaving the rest unread: what a
/// server does with an oversized message or request.
private final class RefuseHandler: ConnectionHandler, @unchecked Sendable {
    private let lock = NSLock()
    private var closed = false
    private var answered = false

    func connection(_ connection: Connection, didRead bytes: UnsafeRawBufferPointer) {
        guard lock.withLock({ !answered }) else { return }
        lock.withLock { answered = true }
        connection.send(Array("refused".utf8))
        connection.close()
    }

    func connectionDidClose(_ connection: Connection, reason: Connection.CloseReason) {
        lock.withLock { closed = true }
    }

    var handlerClosed: Bool { lock.withLock { closed } }
}

/// `Connection.close` with input still coming: the write side is shut down after the last
/// bytes, and input is discarded (bounded in time and bytes) until the peer closes, so the
/// peer reads the answer instead of a reset.
@Suite(.threadsOfTheirOwn) struct LingeringCloseTests {
    private static func start(_ limits: Connection.Limits, _ handler: RefuseHandler) throws -> (TCPServer, UInt16) {
        let server = TCPServer(loops: IOLoopGroup(count: 1), limits: limits, logger: testLogger)
        return (server, try server.start(host: "127.0.0.1", port: 0) { _ in handler }.port)
    }

    private static func shrinkSendBuffer(_ client: BlockingClient) {
        var value: Int32 = 8192
        setsockopt(client.fd, SOL_SOCKET, SO_SNDBUF, &value, socklen_t(MemoryLayout<Int32>.size))
    }

    @Test func aPeerStillSendingReadsTheAnswerThenEOF() throws {
        let handler = RefuseHandler()
        let (server, port) = try Self.start(Connection.Limits(), handler)
        let client = try BlockingClient(port: port)
        Self.shrinkSendBuffer(client)
        // Two MiB in one write, most of it still to come when the server answers and closes.
        try client.send([UInt8](repeating: 0x61, count: 2 << 20))
        #expect(try client.receiveUntilClosed() == Array("refused".utf8))
        #expect(eventually { server.connectionCount == 0 })
        #expect(handler.handlerClosed)
    }

    @Test func aPeerThatNeverStopsSendingIsClosedAfterTheLingerBytes() throws {
        let (server, port) = try Self.start(Connection.Limits(lingerTime: .seconds(30), lingerBytes: 256 * 1024), RefuseHandler())
        let client = try BlockingClient(port: port)
        Self.shrinkSendBuffer(client)
        let piece = [UInt8](repeating: 0x62, count: 64 * 1024)
        var sent = 0
        // Bounded: 64 MiB at most; the server stops discarding long before.
        while sent < 64 << 20, (try? client.send(piece)) != nil { sent += piece.count }
        #expect(sent < 32 << 20, "the server took \(sent) bytes while lingering")
        #expect(eventually { server.connectionCount == 0 })
    }

    @Test func aPeerThatNeitherSendsNorClosesIsClosedAfterTheLingerTime() throws {
        let handler = RefuseHandler()
        let (server, port) = try Self.start(Connection.Limits(lingerTime: .milliseconds(200)), handler)
        let client = try BlockingClient(port: port)
        try client.send("x")
        // The answer, then EOF (the write side is shut down) while the client keeps its socket open.
        var received: [UInt8] = []
        while let chunk = try client.receiveSome() { received += chunk }
        #expect(received == Array("refused".utf8))
        #expect(eventually { handler.handlerClosed })
        #expect(eventually { server.connectionCount == 0 })
    }
}
