import CorkboardModel
import CorkboardWire
import Foundation
import HubTestSupport
import TestSupport
import Testing

/// `corkboard serve --trusted-proxies` over real sockets: requests from a trusted peer (here
/// loopback, standing in for nginx) are counted and logged by the client `X-Forwarded-For`
/// names; without the option the header is ignored and the peer is everyone's address.
@Suite(.threadsOfTheirOwn) struct TrustedProxyServeTests {
    /// `POST /api/boards/board/ops` as a proxy forwarding for `client`; the status.
    static func operation(port: UInt16, forwardedFor client: String, opId: String) throws -> Int {
        let request = OperationRequest(opId: opId, baseSeq: 0, .move(sources: ["i1"], destination: Destination(collection: "done")))
        let body = String(decoding: try WireFormat.encode(ClientMessage.operation(request)), as: UTF8.self)
        let head =
            "POST /api/boards/board/ops HTTP/1.1\r\nHost: t\r\nX-Forwarded-For: \(client)\r\n"
            + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n"
        return try BlockingClient.request(port: port, head + body).status
    }

    /// With one operation a second (bursts of one): client A's second operation in a row is
    /// rate-limited, then client B sends one. Repeated (new clients, after the bucket refilled)
    /// until the three fit well within the second a token takes to come back, so a loaded
    /// machine cannot make the shared case pass by refilling; returns A's second and B's statuses.
    static func secondOfAThenB(port: UInt16) throws -> (a: Int, b: Int) {
        for attempt in 1...5 {
            let (a, b) = ("203.0.113.\(attempt)", "198.51.100.\(attempt)")
            let started = Date()
            _ = try operation(port: port, forwardedFor: a, opId: "a\(attempt)-1")
            let second = try operation(port: port, forwardedFor: a, opId: "a\(attempt)-2")
            let other = try operation(port: port, forwardedFor: b, opId: "b\(attempt)")
            if Date().timeIntervalSince(started) < 0.8 { return (second, other) }
            Thread.sleep(forTimeInterval: 1.5)
        }
        throw HubTestFailure("three requests never took under 0.8 s")
    }

    @Test func forwardedClientsOfATrustedProxyHaveARateEach() throws {
        let server = try ChildServer(["--trusted-proxies", "127.0.0.1/32", "--op-rate", "1", "--store", "memory"])
        let (a, b) = try Self.secondOfAThenB(port: server.port)
        #expect(a == 429, "A's second operation in the second is rate-limited")
        #expect(b != 429, "B has a budget of its own: \(b)")
    }

    @Test func withoutTheOptionTheHeaderIsIgnoredAndThePeerSharesOneRate() throws {
        let server = try ChildServer(["--op-rate", "1", "--store", "memory"])
        let (a, b) = try Self.secondOfAThenB(port: server.port)
        #expect(a == 429)
        #expect(b == 429, "A and B are both the proxy's address")
    }

    @Test func theAccessLogNamesTheForwardedClientAndTheProxy() throws {
        let web = try TemporaryDirectory("corkboard-web")
        try web.write("index.html", "<!doctype html><title>hello</title>")
        let process = try ServerProcess([
            "serve", "--port", "0", "--store", "memory", "--no-demo", "--web-root", web.path, "--log-format", "json",
            "--trusted-proxies", "127.0.0.1/32,::1",
        ])
        let port = try #require(process.waitForListeningPort())
        let forwarded = "GET /healthz HTTP/1.1\r\nHost: t\r\nX-Forwarded-For: 10.9.8.7, 2001:DB8::7\r\n\r\n"
        #expect(try BlockingClient.request(port: port, forwarded).status == 200)
        #expect(try BlockingClient.request(port: port, "GET /readyz HTTP/1.1\r\nHost: t\r\n\r\n").status == 200)
        process.signal(SIGTERM)
        #expect(process.waitForExit() == 0)
        let access = process.standardError.split(separator: "\n").compactMap { line -> [String: String]? in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                object["label"] as? String == "corkboard.access"
            else { return nil }
            // The text fields; the numbers (status, bytes, duration) are JSON numbers.
            return (object["metadata"] as? [String: Any])?.compactMapValues { $0 as? String }
        }
        let health = try #require(access.first { $0["path"] == "/healthz" }, "\(process.standardError)")
        #expect(health["remote"] == "2001:db8::7" && health["proxy"]?.hasPrefix("127.0.0.1:") == true, "\(health)")
        let ready = try #require(access.first { $0["path"] == "/readyz" })
        #expect(ready["remote"]?.hasPrefix("127.0.0.1:") == true && ready["proxy"] == nil, "\(ready)")
    }
}
