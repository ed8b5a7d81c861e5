import CorkboardClient
import CorkboardModel
import CorkboardWire
import Foundation
import Synchronization
import TestSupport
import Testing

/// The client's `tokenProvider` against a scripted server (docs/protocol.md#refreshing-the-token):
/// asked before every hello, asked again before the token expires and the new one sent over the
/// open connection, retried when it fails, and asked again after a 4001 close.
@Suite(.threadsOfTheirOwn) struct TokenProviderTests {
    /// Hands out `token-1`, `token-2`, …; the calls listed in `failing` throw instead.
    final class CountingProvider: Sendable {
        let calls = Mutex(0)
        let failing: Set<Int>

        init(failing: Set<Int> = []) { self.failing = failing }

        func next() throws -> String {
            let call = calls.withLock {
                $0 += 1
                return $0
            }
            if failing.contains(call) { throw ClientTestFailure("the backend is down (call \(call))") }
            return "token-\(call)"
        }
    }

    static func welcome(expiresIn seconds: Double) -> String {
        let expiresAt = Int((Date().timeIntervalSince1970 + seconds) * 1000)
        return ScriptedServerTests.text(
            .welcome(
                Welcome(
                    client: "c1", role: .editor, epoch: "e1", seq: 0, resumed: false, board: ScriptedServerTests.board, peers: [],
                    tokenExpiresAt: expiresAt)))
    }

    static func client(_ fake: FakeServer, _ provider: CountingProvider) -> BoardClient {
        var configuration = BoardClientConfiguration(port: fake.port, board: "b", name: "scripted", token: "the fixed one")
        configuration.reconnectBackoff = Backoff(initial: 0.01, maximum: 0.05)
        configuration.tokenRetryBackoff = Backoff(initial: 0.01, maximum: 0.05)
        configuration.offersDeflate = false
        configuration.operationTimeout = 90
        // What is checked is the provider's part, not how long a join may take: the suite's
        // opening seconds, with hundreds of tests starting at once, once kept a join past 10 s.
        configuration.joinTimeout = 90
        configuration.tokenProvider = { try provider.next() }
        return BoardClient(configuration)
    }

    @Test func theProviderGivesEveryHelloItsTokenAndRefreshesItBeforeItExpires() async throws {
        let fake = try FakeServer()
        // Its second call fails: the refresh is tried again, and the third call's token is sent.
        let provider = CountingProvider(failing: [2])
        let client = Self.client(fake, provider)
        let seen = Mutex<[JSONObject]>([])
        let script = BlockingWork {
            let first = try fake.accept()
            let hello = try first.receiveObject()
            seen.withLock { $0.append(hello) }
            // Expires in 0.4 s: refreshed a quarter of that before.
            try first.send(Self.welcome(expiresIn: 0.4))
            let refresh = try first.receiveObject()
            seen.withLock { $0.append(refresh) }
            try first.send(ScriptedServerTests.text(.tokenAccepted(expiresAt: Int((Date().timeIntervalSince1970 + 600) * 1000))))
            // Unrefreshed after all (as if the refresh had come too late): the server closes 4001.
            try first.close(code: 4001)
            let second = try fake.accept()
            let again = try second.receiveObject()
            seen.withLock { $0.append(again) }
            try second.send(ScriptedServerTests.welcome(seq: 0))
            _ = try? second.receive() // hold the connection until the client leaves
        }
        try await client.connect()
        #expect(eventually(timeout: 30) { seen.withLock { $0.count } == 3 })
        await client.close()
        try await script.value
        let messages = seen.withLock { $0 }
        try #require(messages.count == 3)
        #expect(messages[0]["type"] == "hello" && messages[0]["token"] == "token-1")
        #expect(messages[1] == ["type": "token", "token": "token-3"])
        #expect(messages[2]["type"] == "hello" && messages[2]["token"] == "token-4")
        #expect(messages[2]["resume"] != nil, "the reconnect after 4001 resumes")
    }

    @Test func aProviderThatFailsAtConnectFailsTheFirstJoinWithItsReason() async throws {
        let fake = try FakeServer()
        let client = Self.client(fake, CountingProvider(failing: [1]))
        do {
            try await client.connect()
            Issue.record("connected without a token")
        } catch {
            #expect("\(error)".contains("the token provider failed"), "\(error)")
        }
    }
}
