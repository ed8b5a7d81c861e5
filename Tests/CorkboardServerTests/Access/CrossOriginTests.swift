import Foundation
import TestSupport
import Testing

/// CORS on `/api` with `--allowed-origins` (docs/protocol.md#8-http-api): a page of a listed
/// origin gets its preflight answered and may read the answers; any other origin is refused,
/// preflight included, and is never told it may read anything.
@Suite(.threadsOfTheirOwn) struct CrossOriginTests {
    static let page = "https://corkboard.example"

    static func fixture(_ origins: Set<String>? = [page]) throws -> HubFixture {
        try HubFixture { $0.webSocket.allowedOrigins = origins }
    }

    static func preflight(_ api: BoardAPI, _ target: String, origin: String, method: String) throws -> APIResponse {
        try api.send(
            "OPTIONS", target,
            headers: ["Origin: \(origin)", "Access-Control-Request-Method: \(method)", "Access-Control-Request-Headers: authorization, content-type"])
    }

    @Test func anAllowedPagesPreflightIsAnsweredForEveryAPIPath() throws {
        let fixture = try Self.fixture()
        let expected = [
            "/api/boards": "GET, POST, HEAD, OPTIONS", "/api/boards/board": "GET, DELETE, PATCH, HEAD, OPTIONS",
            "/api/boards/board/ops": "GET, POST, HEAD, OPTIONS", "/api/boards/board/events": "GET, HEAD, OPTIONS",
        ]
        for (target, methods) in expected {
            let response = try Self.preflight(fixture.api, target, origin: Self.page, method: "POST")
            #expect(response.status == 204, "\(target): \(response)")
            #expect(response.http.header("Access-Control-Allow-Origin") == Self.page)
            #expect(response.http.header("Access-Control-Allow-Methods") == methods, "\(target)")
            #expect(response.http.header("Allow") == methods, "\(target)")
            #expect(response.http.header("Access-Control-Allow-Headers") == "Authorization, Content-Type, Last-Event-ID")
            #expect(response.http.header("Access-Control-Max-Age") == "600")
            #expect(response.http.header("Vary") == "Origin")
            #expect(response.http.header("Access-Control-Allow-Credentials") == nil, "tokens go in Authorization, never cookies")
        }
    }

    @Test func anAllowedPageReadsTheAnswersIncludingErrors() throws {
        let fixture = try Self.fixture()
        let origin = "Origin: \(Self.page)"
        let op = #"{"type":"delete","opId":"page-1","baseSeq":0,"items":["i1"]}"#
        let answers = [
            try fixture.api.send("GET", "/api/boards", headers: [origin]),
            try fixture.api.send("POST", "/api/boards/board/ops", headers: [origin, "Content-Type: application/json"], body: op),
            try fixture.api.send("GET", "/api/boards/nope", headers: [origin]),
        ]
        #expect(answers.map(\.status) == [200, 200, 404])
        for answer in answers {
            #expect(answer.http.header("Access-Control-Allow-Origin") == Self.page, "\(answer)")
            #expect(answer.http.header("Vary") == "Origin")
        }
        #expect(try fixture.document().seq == 1)
        // Without Origin (a program, not a page): served, and still `Vary: Origin` for caches.
        let bot = try fixture.api.get("/api/boards")
        #expect(bot.status == 200 && bot.http.header("Access-Control-Allow-Origin") == nil && bot.http.header("Vary") == "Origin")
    }

    @Test func anotherOriginIsRefusedAndToldNothing() throws {
        let fixture = try Self.fixture()
        let evil = "https://evil.example"
        for target in ["/api/boards", "/api/boards/board", "/api/boards/board/ops"] {
            let response = try Self.preflight(fixture.api, target, origin: evil, method: "DELETE")
            #expect(response.status == 403, "\(target): \(response)")
            #expect(response.object?["error"] == "forbidden")
            #expect(response.http.header("Access-Control-Allow-Origin") == nil)
            #expect(response.http.header("Access-Control-Allow-Methods") == nil)
        }
        let deleted = try fixture.api.send("DELETE", "/api/boards/board", headers: ["Origin: \(evil)"])
        #expect(deleted.status == 403 && deleted.http.header("Access-Control-Allow-Origin") == nil)
        #expect(try fixture.document().board == fixture.board)
    }

    @Test func withoutAListNoPageOfAnotherOriginIsToldItMayRead() throws {
        let fixture = try Self.fixture(nil)
        let preflight = try Self.preflight(fixture.api, "/api/boards", origin: Self.page, method: "POST")
        #expect(preflight.status == 204)
        #expect(preflight.http.header("Allow") == "GET, POST, HEAD, OPTIONS")
        #expect(preflight.http.header("Access-Control-Allow-Origin") == nil && preflight.http.header("Access-Control-Allow-Methods") == nil)
        let get = try fixture.api.send("GET", "/api/boards", headers: ["Origin: \(Self.page)"])
        #expect(get.status == 200 && get.http.header("Access-Control-Allow-Origin") == nil)
    }
}
