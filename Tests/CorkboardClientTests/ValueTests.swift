import CorkboardClient
import Testing

/// The pure pieces: URLs and backoff delays.
@Suite struct ValueTests {
    @Test(arguments: [
        ("ws://127.0.0.1:8080", "127.0.0.1", 8080, "/ws"),
        ("ws://127.0.0.1:8080/", "127.0.0.1", 8080, "/ws"),
        ("ws://localhost:9000/other", "localhost", 9000, "/other"),
        ("ws://[::1]:8080/ws", "::1", 8080, "/ws"),
        ("ws://example.org", "example.org", 80, "/ws"),
    ])
    func urlsAreTakenApart(url: String, host: String, port: Int, path: String) throws {
        let address = try ServerAddress(url: url)
        #expect(address == ServerAddress(host: host, port: UInt16(port), path: path))
        #expect(!address.usesTLS)
    }

    @Test(arguments: [
        ("wss://example.org", "example.org", 443, "/ws"),
        ("wss://127.0.0.1:8443/", "127.0.0.1", 8443, "/ws"),
        ("wss://[::1]:9443/other", "::1", 9443, "/other"),
    ])
    func secureURLsAreTakenApart(url: String, host: String, port: Int, path: String) throws {
        let address = try ServerAddress(url: url)
        #expect(address == ServerAddress(host: host, port: UInt16(port), path: path, usesTLS: true))
        let configuration = BoardClientConfiguration(address: address, board: "b", name: "n")
        #expect(configuration.usesTLS && configuration.port == UInt16(port) && configuration.trustedCAFile == nil)
    }

    @Test(arguments: ["http://127.0.0.1:8080", "https://example.org", "wss:/example.org", "ws://", "wss://", "ws://host:0", "ws://host:99999", "ws://[::1"])
    func badURLsAreRefused(url: String) {
        #expect(throws: ServerAddress.Invalid.self) { try ServerAddress(url: url) }
    }

    @Test func theSocketTargetNamesTheBoardForABalancer() {
        #expect(BoardClientConfiguration(board: "demo", name: "Ada").socketTarget == "/ws?board=demo")
        #expect(BoardClientConfiguration(path: "/ws?v=1", board: "été 1/2", name: "Ada").socketTarget == "/ws?v=1&board=%C3%A9t%C3%A9%201%2F2")
    }

    @Test func backoffGrowsToItsBoundWithJitterBelow() {
        let backoff = Backoff(initial: 0.1, maximum: 2, multiplier: 2, jitter: 0.5)
        #expect(backoff.delay(attempt: 0, random: 0) == 0.1)
        #expect(backoff.delay(attempt: 3, random: 0) == 0.8)
        #expect(backoff.delay(attempt: 10, random: 0) == 2)
        #expect(backoff.delay(attempt: 10_000, random: 0) == 2)
        #expect(backoff.delay(attempt: 10, random: 0.999_999) > 1)
        for attempt in 0..<50 {
            let delay = backoff.delay(attempt: attempt)
            #expect(delay > 0 && delay <= 2)
        }
    }
}
