import CorkboardHub
import CorkboardModel
import CorkboardServer
import Foundation
import TestSupport
import Testing

/// `--allowed-origins`: a page of another origin may neither open a WebSocket nor call the API
/// through its visitor's browser; the allowed origin and clients without `Origin` (bots) may.
@Suite(.threadsOfTheirOwn) struct OriginTests {
    @Test func otherOriginsAreRefusedOnTheWebSocketAndTheAPI() async throws {
        try await offPool {
            let fixture = try HubFixture { $0.webSocket.allowedOrigins = ["https://corkboard.example"] }
            let port = fixture.port
            let evil = try WebSocketTestClient(port: port, extraHeaders: "Origin: https://evil.example\r\n")
            #expect(evil.handshakeResponse.status == 403)
            let good = try WebSocketTestClient(port: port, extraHeaders: "Origin: https://corkboard.example\r\n")
            #expect(good.handshakeResponse.status == 101)
            let op = #"{"type":"delete","opId":"evil-1","baseSeq":0,"items":["i1"]}"#
            for (origin, status) in [("Origin: https://evil.example\r\n", 403), ("Origin: null\r\n", 403), ("", 200)] {
                let response = try BlockingClient.request(
                    port: port,
                    "POST /api/boards/board/ops HTTP/1.1\r\nHost: t\r\n\(origin)"
                        + "Content-Type: text/plain\r\nContent-Length: \(op.utf8.count)\r\n\r\n\(op)")
                #expect(response.status == status, "\(origin): \(response.text)")
            }
            #expect(try BlockingClient.request(port: port, "GET /api/boards HTTP/1.1\r\nHost: t\r\nOrigin: https://evil.example\r\n\r\n").status == 403)
            #expect(try fixture.document().seq == 1)
        }
    }

    /// A page refused at the handshake sees only a failed connection; `GET /api` tells it why,
    /// and is readable by any page (it says nothing about any board).
    @Test func anyPageReadsWhetherItsOriginIsAllowed() async throws {
        try await offPool {
            let fixture = try HubFixture { $0.webSocket.allowedOrigins = ["https://corkboard.example"] }
            for (origin, allowed) in [("https://evil.example", false), ("https://corkboard.example", true)] {
                let response = try BlockingClient.request(port: fixture.port, "GET /api HTTP/1.1\r\nHost: t\r\nOrigin: \(origin)\r\n\r\n")
                #expect(response.status == 200 && response.header("Access-Control-Allow-Origin") == "*")
                let info = try #require(try JSONDecoder().decode(JSONValue.self, from: Data(response.body)).objectValue)
                #expect(info["originAllowed"] == .bool(allowed), "\(origin): \(response.text)")
                #expect(info["version"] == .string(CorkboardVersion.current) && info["protocol"] == "corkboard.v1")
            }
            // Without Origin (a program), nothing to say about one.
            let plain = try BlockingClient.request(port: fixture.port, "GET /api HTTP/1.1\r\nHost: t\r\n\r\n")
            #expect(plain.status == 200 && !plain.text.contains("originAllowed"))
        }
    }

    /// `tokenRequired` lets the board list page, before it has a token, learn that it needs
    /// one without drawing a 401 (an error in the browser's console) from `GET /api/boards`.
    @Test func anyPageReadsWhetherATokenIsRequired() async throws {
        try await offPool {
            let open = try HubFixture()
            let openInfo = try BlockingClient.request(port: open.port, "GET /api HTTP/1.1\r\nHost: t\r\n\r\n")
            #expect(try JSONDecoder().decode(JSONValue.self, from: Data(openInfo.body)).objectValue?["tokenRequired"] == .bool(false))
            let access = try TokenFile(grants: [TokenFile.Grant(token: "own", role: .owner, boards: .all)])
            let server = try TestServer {
                $0.createsDemoBoard = false
                $0.access = access
            }
            let info = try BlockingClient.request(port: server.port, "GET /api HTTP/1.1\r\nHost: t\r\n\r\n")
            #expect(info.status == 200, "without a token: \(info.text)")
            #expect(try JSONDecoder().decode(JSONValue.self, from: Data(info.body)).objectValue?["tokenRequired"] == .bool(true))
        }
    }
}
