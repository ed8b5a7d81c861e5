import Foundation
import Synchronization
import TestSupport
import Testing

@testable import Sockets

/// Holds the loop's output at each read and sends `reply`: what a WebSocket member's session
/// does with an operation it hands to its board's room. The release is kept for the test,
/// which plays the room. Touched on the loop, read by tests.
private final class HoldingHandler: ConnectionHandler, @unchecked Sendable {
    let reply: [UInt8]
    private let state = Mutex<(connection: Connection?, releases: [@Sendable () -> Void])>((nil, []))

    init(reply: String) { self.reply = Array(reply.utf8) }

    func connection(_ connection: Connection, didRead bytes: UnsafeRawBufferPointer) {
        let release = connection.loop.holdOutput()
        state.withLock {
            $0.connection = connection
            $0.releases.append(release)
        }
        connection.send(reply)
    }

    func connectionDidClose(_ connection: Connection, reason: Connection.CloseReason) {}

    var connection: Connection? { state.withLock { $0.connection } }
    var releases: [@Sendable () -> Void] { state.withLock { $0.releases } }
}

/// `IOLoop.holdOutput`: the output of a turn that handed work to another thread waits for that
/// work's answer, which then leaves in the same write, or for `IOLoop.holdLimit`, whichever
/// comes first.
@Suite(.threadsOfTheirOwn) struct IOLoopHeldOutputTests {
    private let clock = ManualLoopClock()

    private func start(_ handler: HoldingHandler) throws -> (TCPServer, BlockingClient) {
        let server = TCPServer(loops: IOLoopGroup(count: 1, clock: clock), logger: testLogger)
        let port = try server.start(host: "127.0.0.1", port: 0) { _ in handler }.port
        return (server, try BlockingClient(port: port))
    }

    /// The client sends a move; the handler holds and replies; "answer" comes through the
    /// loop's inbox, as a room's broadcast does. Returns the connection once the loop ran it.
    private func readAndAnswer(_ move: String, _ handler: HoldingHandler, _ client: BlockingClient, holds: Int) throws -> Connection {
        try client.send(move)
        #expect(eventually { handler.releases.count == holds })
        let connection = try #require(handler.connection)
        connection.loop.execute { connection.send(Array("answer".utf8)) }
        connection.loop.queue.sync {}
        return connection
    }

    /// Reads the reply and the answer, and how many writes the server made since `before`.
    private func writesOfReplyAndAnswer(since before: Int, _ server: TCPServer, _ client: BlockingClient, _ connection: Connection) throws -> Int {
        var received: [UInt8] = []
        while received.count < "read;answer".utf8.count, let chunk = try client.receiveSome() { received += chunk }
        #expect(String(decoding: received, as: UTF8.self) == "read;answer")
        connection.loop.queue.sync {} // the flush counts its write after the bytes left
        return server.counters.reading.writeCalls - before
    }

    @Test func theAnswerLeavesInTheSameWriteAsTheTurnThatWaitedForIt() throws {
        let handler = HoldingHandler(reply: "read;")
        let (server, client) = try start(handler)
        let connection = try readAndAnswer("move", handler, client, holds: 1)
        let before = server.counters.reading.writeCalls
        handler.releases[0]()
        #expect(try writesOfReplyAndAnswer(since: before, server, client, connection) == 1, "the turn's reply and the answer in one write")
    }

    @Test func aHoldNobodyReleasesEndsAtTheLimitAndItsLateReleaseEndsNoLaterHold() throws {
        let handler = HoldingHandler(reply: "read;")
        let (server, client) = try start(handler)
        let connection = try readAndAnswer("move", handler, client, holds: 1)
        let before = server.counters.reading.writeCalls
        clock.advance(by: IOLoop.holdLimit)
        #expect(try writesOfReplyAndAnswer(since: before, server, client, connection) == 1)

        // A second hold; the first one's release, coming late, must not end it.
        _ = try readAndAnswer("move again", handler, client, holds: 2)
        handler.releases[0]()
        connection.loop.queue.sync {}
        let held = server.counters.reading.writeCalls
        handler.releases[1]()
        #expect(try writesOfReplyAndAnswer(since: held, server, client, connection) == 1, "still held after the stale release: one write")
    }
}
