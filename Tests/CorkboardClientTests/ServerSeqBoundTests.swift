import CorkboardClient
import CorkboardModel
import CorkboardWire
import Foundation
import TestSupport
import Testing

/// A server (a broken or hostile one) that sends seqs at the ends of Int: the bot client does
/// not trap adding one to them or taking one away, and rejoins when the connection drops.
@Suite(.threadsOfTheirOwn) struct ServerSeqBoundTests {
    @Test func aWelcomeAtTheLargestSeqDoesNotTrapTheClient() async throws {
        let fake = try FakeServer()
        var configuration = BoardClientConfiguration(port: fake.port, board: "b", name: "scripted")
        configuration.reconnectBackoff = Backoff(initial: 0.01, maximum: 0.05)
        configuration.offersDeflate = false
        configuration.operationTimeout = 90
        let client = BoardClient(configuration)
        let script = BlockingWork { () -> JSONObject in
            let first = try fake.accept()
            _ = try first.receiveObject()
            try first.send(ScriptedServerTests.welcome(seq: Int.max))
            // At the replica's seq: a repeat, ignored (the client used to add one to its seq first).
            try first.send(ScriptedServerTests.move(seq: Int.max, "x", to: "done"))
            try first.send(ScriptedServerTests.move(seq: Int.min, "x", to: "done"))
            first.close()
            let second = try fake.accept()
            let again = try second.receiveObject()
            try second.send(ScriptedServerTests.welcome(seq: 7))
            _ = try? second.receive()
            return again
        }
        try await client.connect()
        #expect(await client.waitForReplica { $0.seq == 7 } != nil)
        await client.close()
        // It resumes from where it was, and takes the snapshot it gets.
        #expect(try await script.value["resume"] != nil)
    }
}
