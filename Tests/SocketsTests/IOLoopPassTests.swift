import Dispatch
import Synchronization
import TestSupport
import Testing

@testable import Sockets

/// Sends nothing of its own. Once the first connection's output drains, it plays a room on
/// another thread: `b` for every connection, handed to the loop through its inbox as a
/// broadcast is, while the loop is in the middle of its pass. Touched on the loop.
private final class MidPassBroadcaster: ConnectionHandler, @unchecked Sendable {
    var first: Connection?
    var everyone: [Connection] = []

    func connection(_ connection: Connection, didRead bytes: UnsafeRawBufferPointer) {}
    func connectionDidClose(_ connection: Connection, reason: Connection.CloseReason) {}

    func connectionDidDrain(_ connection: Connection) {
        guard connection === first else { return }
        first = nil
        let everyone = self.everyone
        // Not on the loop, so `execute` puts it in the inbox, as a room's broadcast comes.
        DispatchQueue.global().sync {
            connection.loop.execute { for member in everyone { member.send(Array("b".utf8)) } }
        }
    }
}

/// `IOLoop.flushPending`: a long pass takes a turn every `connectionsBetweenTurns` connections,
/// so a broadcast that reaches the loop during the pass leaves with the writes it has not made yet.
@Suite(.threadsOfTheirOwn) struct IOLoopPassTests {
    @Test func aBroadcastArrivingDuringAPassJoinsTheWritesThePassHasNotMade() throws {
        let count = 2 * IOLoop.connectionsBetweenTurns + 4
        let handler = MidPassBroadcaster()
        let accepted = Mutex<[Connection]>([])
        let server = TCPServer(loops: IOLoopGroup(count: 1), logger: testLogger)
        let port = try server.start(host: "127.0.0.1", port: 0) { connection in
            accepted.withLock { $0.append(connection) }
            return handler
        }.port
        let clients = try (0..<count).map { _ in try BlockingClient(port: port) }
        #expect(eventually { accepted.withLock { $0.count } == count })
        let connections = accepted.withLock { $0 }
        let loop = connections[0].loop
        loop.queue.sync {
            handler.first = connections[0]
            handler.everyone = connections
        }
        let before = server.counters.reading.writeCalls

        // One turn queues `a` for everyone: one pass, in this order.
        loop.execute { for connection in connections { connection.send(Array("a".utf8)) } }
        for client in clients {
            var received: [UInt8] = []
            while received.count < 2, let chunk = try client.receiveSome() { received += chunk }
            #expect(String(decoding: received, as: UTF8.self) == "ab")
        }
        loop.queue.sync {} // the flush counts its writes after the bytes left

        // The connections before the pass's first turn had written `a` and get `b` in a pass of
        // their own; all the others write `ab` at once.
        #expect(server.counters.reading.writeCalls - before == count + IOLoop.connectionsBetweenTurns)
    }
}
