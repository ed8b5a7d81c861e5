import CorkboardClient
import CorkboardModel
import CorkboardWire
import Foundation
import TestSupport
import Testing

/// Against a scripted fake server: the hello the client sends, and what it does with a gap, an
/// event that does not fit, and an operation whose answer was lost.
@Suite(.threadsOfTheirOwn) struct ScriptedServerTests {
    static let board = Board(
        id: "b", title: "B",
        collections: [
            BoardCollection(id: "todo", title: "To do", items: [Item(id: "x", label: "X"), Item(id: "y", label: "Y")]),
            BoardCollection(id: "done", title: "Done"),
        ])

    static func text(_ message: ServerMessage) -> String {
        String(decoding: try! WireFormat.encode(message), as: UTF8.self)
    }

    static func welcome(
        seq: Int, resumed: Bool = false, board: Board? = ScriptedServerTests.board, epoch: String = "e1", peers: [Peer] = [],
        count: Int? = nil, hue: Hue? = nil
    ) -> String {
        text(
            .welcome(
                Welcome(
                    client: "c1", role: .owner, epoch: epoch, seq: seq, resumed: resumed, board: resumed ? nil : board, peers: peers,
                    count: count, hue: hue)))
    }

    /// A script for `fake`'s first connection: answers its hello with `welcome`, sends
    /// `messages`, and holds the connection until the client leaves. Its value is the hello.
    static func welcoming(_ fake: FakeServer, with welcome: String, then messages: [String]) -> BlockingWork<JSONObject> {
        BlockingWork {
            let connection = try fake.accept()
            let hello = try connection.receiveObject()
            try connection.send(welcome)
            for message in messages { try connection.send(message) }
            _ = try? connection.receive()
            return hello
        }
    }

    static func move(seq: Int, opId: String = "other-1", _ item: ItemID, to collection: CollectionID) -> String {
        text(
            .committed(
                CommittedEvent(
                    seq: seq, opId: opId, client: "c9", op: .move(sources: [item], destination: Destination(collection: collection)), adjusted: false)))
    }

    static func opId(_ message: JSONObject) throws -> String {
        guard case .string(let opId)? = message["opId"] else { throw ClientTestFailure("no opId in \(message)") }
        return opId
    }

    func client(_ fake: FakeServer, _ configure: (inout BoardClientConfiguration) -> Void = { _ in }) -> BoardClient {
        var configuration = BoardClientConfiguration(port: fake.port, board: "b", name: "scripted")
        configuration.reconnectBackoff = Backoff(initial: 0.01, maximum: 0.05)
        configuration.offersDeflate = false
        // Every await ends: a script that gave up must fail the test, not hang the run.
        configuration.operationTimeout = 90
        configure(&configuration)
        return BoardClient(configuration)
    }

    @Test func aGapInSeqsRejoinsForAFreshSnapshot() async throws {
        let fake = try FakeServer()
        let client = client(fake)
        let script = BlockingWork { () -> (JSONObject, JSONObject) in
            let first = try fake.accept()
            let hello = try first.receiveObject()
            try first.send(Self.welcome(seq: 0))
            try first.send(Self.move(seq: 1, "x", to: "done"))
            try first.send(Self.move(seq: 3, "y", to: "done")) // 2 is missing
            let second = try fake.accept()
            let again = try second.receiveObject()
            var moved = Self.board
            try moved.apply(.move(sources: ["x", "y"], destination: Destination(collection: "done")))
            try second.send(Self.welcome(seq: 3, board: moved))
            _ = try? second.receive() // hold the connection until the client leaves
            return (hello, again)
        }
        try await client.connect()
        let replica = await client.waitForReplica { $0.seq == 3 }
        #expect(replica?.board.collections[1].items.map(\.id) == ["x", "y"])
        await client.close()
        let (hello, again) = try await script.value
        #expect(hello["resume"] == nil)
        #expect(hello["board"] == .string("b"))
        // After the gap: no resume, a fresh snapshot.
        #expect(again["resume"] == nil)
    }

    @Test func anEventThatDoesNotFitRejoinsForAFreshSnapshot() async throws {
        let fake = try FakeServer()
        let client = client(fake)
        let script = BlockingWork { () -> JSONObject in
            let first = try fake.accept()
            _ = try first.receiveObject()
            try first.send(Self.welcome(seq: 4))
            try first.send(Self.move(seq: 5, "ghost", to: "done"))
            let second = try fake.accept()
            let again = try second.receiveObject()
            try second.send(Self.welcome(seq: 5))
            _ = try? second.receive()
            return again
        }
        try await client.connect()
        #expect(await client.waitForReplica { $0.seq == 5 } != nil)
        await client.close()
        #expect(try await script.value["resume"] == nil)
    }

    @Test func aLostAnswerIsAskedForAgainWithTheSameOpIdAndBase() async throws {
        let fake = try FakeServer()
        let client = client(fake)
        let script = BlockingWork { () -> (JSONObject, JSONObject, JSONObject) in
            let first = try fake.accept()
            _ = try first.receiveObject()
            try first.send(Self.welcome(seq: 2))
            let sent = try first.receiveObject()
            first.close() // the answer is lost with the connection
            let second = try fake.accept()
            let hello = try second.receiveObject()
            try second.send(Self.welcome(seq: 2, resumed: true))
            let resent = try second.receiveObject()
            // The server had committed it before the drop: a repeat of that event.
            guard case .string(let opId)? = resent["opId"] else { throw ClientTestFailure("no opId in the resend") }
            try second.send(Self.move(seq: 3, opId: opId, "x", to: "done"))
            _ = try? second.receive()
            return (sent, hello, resent)
        }
        try await client.connect()
        let result = await client.move(["x"], to: "done")
        #expect(result.event?.seq == 3)
        #expect(client.seq == 3)
        await client.close()
        let (sent, hello, resent) = try await script.value
        #expect(sent["opId"] != nil)
        #expect(sent["opId"] == resent["opId"])
        #expect(sent["baseSeq"] == .number(2))
        #expect(resent["baseSeq"] == .number(2))
        #expect(hello["resume"] == .object(["epoch": .string("e1"), "seq": .number(2)]))
    }

    @Test func transientRejectionsAreRetriedThenSurfaced() async throws {
        let fake = try FakeServer()
        var configuration = BoardClientConfiguration(port: fake.port, board: "b", name: "retrier")
        configuration.offersDeflate = false
        configuration.maximumRetries = 2
        configuration.retryBackoff = Backoff(initial: 0.01, maximum: 0.02)
        configuration.operationTimeout = 90
        let client = BoardClient(configuration)
        let script = BlockingWork { () -> [String] in
            let connection = try fake.accept()
            _ = try connection.receiveObject()
            try connection.send(Self.welcome(seq: 0))
            var opIds: [String] = []
            for code in ["unavailable", "rate-limited", "rate-limited"] {
                let opId = try Self.opId(connection.receiveObject())
                opIds.append(opId)
                try connection.send(Self.text(.rejected(Rejected(opId: opId, code: RejectionCode(rawValue: code)!, message: "try later"))))
            }
            // A busy move is not retried: the caller decides.
            let busy = try Self.opId(connection.receiveObject())
            opIds.append(busy)
            try connection.send(Self.text(.rejected(Rejected(opId: busy, code: .busy, message: "held"))))
            _ = try? connection.receive()
            return opIds
        }
        try await client.connect()
        #expect(await client.move(["x"], to: "done") == .rejected(.rateLimited, message: "try later"))
        #expect(await client.move(["y"], to: "done") == .rejected(.busy, message: "held"))
        await client.close()
        let opIds = try await script.value
        #expect(Set(opIds.prefix(3)).count == 1)
        #expect(opIds[3] != opIds[0])
    }
}
