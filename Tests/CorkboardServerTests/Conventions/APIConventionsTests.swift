import CorkboardHub
import CorkboardModel
import CorkboardServer
import CorkboardWire
import Foundation
import TestSupport
import Testing

/// The conventions every `/api` endpoint follows (docs/protocol.md#conventions), checked over
/// the real routes: unknown query parameters refused everywhere, lists in pages, one error
/// shape, and the RateLimit fields of a 429.
@Suite(.threadsOfTheirOwn) struct APIConventionsTests {
    /// `error` and `message`, both strings, `error` the status's reason in lower case.
    static func expectErrorShape(_ response: APIResponse, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let reason = HTTPReason.lowercased(response.status)
        #expect(response.object?["error"] == .string(reason), "\(what): \(response)", sourceLocation: sourceLocation)
        #expect(response.object?["message"]?.stringValue != nil, "\(what): \(response)", sourceLocation: sourceLocation)
    }

    /// Every route of the document, with any method it documents, refuses `?foo=1` with 400.
    @Test func everyDocumentedRouteRefusesAnUnknownQueryParameter() throws {
        let fixture = try HubFixture()
        let document = try #require(try fixture.api.get("/api/openapi.json").object)
        var checked = 0
        for (path, item) in try #require(document["paths"]?.objectValue) {
            for method in (item.objectValue ?? [:]).keys where !["parameters", "options", "head"].contains(method) {
                let target = path.replacingOccurrences(of: "{id}", with: "board") + "?foo=1"
                let response = try fixture.api.send(method.uppercased(), target, body: method == "get" || method == "delete" ? "" : "{}")
                #expect(response.status == 400, "\(method.uppercased()) \(target): \(response)")
                Self.expectErrorShape(response, "\(method.uppercased()) \(target)")
                #expect(response.text.contains("foo"), "\(method.uppercased()) \(target): \(response)")
                checked += 1
            }
        }
        #expect(checked >= 10)
        let repeated = try fixture.api.get("/api/boards?limit=1&limit=2")
        #expect(repeated.status == 400 && repeated.object?["message"] == "limit is given twice", "\(repeated)")
    }

    /// 150 boards: the default page holds 100 and says where the next starts; following `next`
    /// lists every board once, by id; a bad `limit` or `cursor` is 400.
    @Test func theBoardsAreListedInPagesFollowingNext() throws {
        let fixture = try HubFixture()
        var ids = ["board"]
        for n in 0..<149 {
            var board = HubFixture.standardBoard
            board.id = String(format: "b%03d", n)
            try fixture.api.createBoard(board)
            ids.append(board.id)
        }
        let first = try fixture.api.get("/api/boards").decode(BoardList.self)
        #expect(first.boards.count == 100)
        #expect(first.next != nil)
        var listed: [String] = []
        var cursor: String?
        var pages = 0
        repeat {
            let page = try fixture.api.get("/api/boards?limit=40" + (cursor.map { "&cursor=" + $0 } ?? "")).decode(BoardList.self)
            listed += page.boards.map(\.id)
            cursor = page.next
            pages += 1
        } while cursor != nil && pages < 10
        #expect(pages == 4)
        #expect(listed == ids.sorted())
        for query in ["limit=0", "limit=1001", "limit=x", "cursor=%25%25", "cursor=", "since=1"] {
            let refused = try fixture.api.get("/api/boards?" + query)
            #expect(refused.status == 400, "\(query): \(refused)")
            Self.expectErrorShape(refused, query)
        }
    }

    @Test func theRevocationsAreListedInPagesFollowingNext() throws {
        let fixture = try HubFixture()
        for body in [#"{"sub":"user-2"}"#, #"{"jti":"t-1"}"#, #"{"sub":"user-1"}"#] {
            #expect(try fixture.api.post("/api/revocations", body: body).status == 201)
        }
        var listed: [String] = []
        var target = "/api/revocations?limit=2"
        for _ in 0..<5 {
            let page = try #require(try fixture.api.get(target).object)
            guard case .array(let revocations)? = page["revocations"] else { throw HubTestFailure("no revocations in \(page)") }
            #expect(revocations.count <= 2)
            listed += revocations.compactMap { ($0.objectValue?["sub"] ?? $0.objectValue?["jti"])?.stringValue }
            guard let next = page["next"]?.stringValue else { break }
            target = "/api/revocations?limit=2&cursor=" + next
        }
        #expect(listed == ["t-1", "user-1", "user-2"], "jti before sub (by what they name), each by its value")
    }

    /// The log takes `cursor` as the same seq as `since`, and not both.
    @Test func theLogTakesCursorAsSince() throws {
        let fixture = try HubFixture()
        let ada = try fixture.join("Ada")
        try ada.commit(.move(sources: ["i1"], destination: Destination(collection: "done")))
        try ada.commit(.delete(items: ["i2"]))
        let page = try fixture.api.get("/api/boards/board/ops?limit=1").decode(EventPage.self)
        let next = try #require(page.next)
        let after = try fixture.api.get("/api/boards/board/ops?cursor=\(next)").decode(EventPage.self)
        #expect(after.events.map(\.seq) == [2] && after.next == nil)
        #expect(try fixture.api.get("/api/boards/board/ops?cursor=1&since=1").status == 400)
    }

    /// Every failure the router and the routes answer, through the real server: one shape.
    @Test func everyErrorHasTheOneShape() throws {
        let fixture = try HubFixture()
        let api = fixture.api
        let move = #"{"type":"move","opId":"m-1","baseSeq":0,"sources":["nope"],"destination":{"collection":"done"}}"#
        let cases: [(String, () throws -> APIResponse)] = [
            ("unknown route", { try api.get("/api/nothing-here") }),
            ("405", { try api.send("PUT", "/api/boards") }),
            ("501", { try api.send("BREW", "/api/boards") }),
            ("bad JSON", { try api.post("/api/boards", body: "{") }),
            ("a board twice", { try api.post("/api/boards", json: BoardAPI.newBoardBody(HubFixture.standardBoard)) }),
            ("a missing board", { try api.get("/api/boards/missing") }),
            ("a missing board's delete", { try api.delete("/api/boards/missing") }),
            ("a rename without title", { try api.send("PATCH", "/api/boards/board", body: "{}") }),
            ("a log past the seq", { try api.get("/api/boards/board/ops?since=99") }),
            ("an event stream's bad since", { try api.get("/api/boards/board/events?since=x") }),
            ("a body that is no operation", { try api.post("/api/boards/board/ops", body: "[]") }),
            ("a rejected operation", { try api.post("/api/boards/board/ops", body: move) }),
            ("a bad revocation", { try api.post("/api/revocations", body: "{}") }),
            ("an unknown revocation", { try api.delete("/api/revocations?sub=nobody") }),
            ("a bad Authorization", { try api.send("GET", "/api/boards", headers: ["Authorization: Basic eA=="]) }),
            (
                "a body too large",
                {
                    APIResponse(
                        http: try BlockingClient.request(port: api.port, "POST /api/boards HTTP/1.1\r\nHost: t\r\nContent-Length: 2000000\r\n\r\n"))
                }
            ),
        ]
        for (what, request) in cases {
            let response = try request()
            #expect(response.status >= 400, "\(what): \(response)")
            Self.expectErrorShape(response, what)
        }
        // The rejected operation keeps what clients read.
        let rejected = try api.post("/api/boards/board/ops", body: move)
        #expect(rejected.object?["type"] == "rejected" && rejected.object?["opId"] == "m-1" && rejected.object?["code"] != nil, "\(rejected)")
    }

    /// A 429 says when to come back and where the caller stands, and a page may read it.
    @Test func a429CarriesTheRateLimitFields() throws {
        let origin = "https://app.example"
        let fixture = try HubFixture { configuration in
            configuration.hub.operationRate = RateLimit(perSecond: 1, burst: 2)
            configuration.webSocket.allowedOrigins = [origin]
        }
        var limited: APIResponse?
        for n in 0..<6 where limited == nil {
            let body = #"{"type":"move","opId":"r-\#(n)","baseSeq":0,"sources":["i1"],"destination":{"collection":"done"}}"#
            let response = try fixture.api.send("POST", "/api/boards/board/ops", headers: ["Origin: \(origin)"], body: body)
            if response.status == 429 { limited = response }
        }
        let response = try #require(limited)
        Self.expectErrorShape(response, "429")
        #expect(response.object?["code"] == "rate-limited")
        #expect(response.http.header("Retry-After") == "1")
        #expect(response.http.header("RateLimit-Policy") == #""ops";q=2;w=2, "op-bytes";q=4194304;w=4;qu="content-bytes""#)
        let state = try #require(response.http.header("RateLimit"))
        #expect(state.hasPrefix(#""ops";r=0;t="#) && state.contains(#", "op-bytes";r="#), "\(state)")
        let exposed = Set((response.http.header("Access-Control-Expose-Headers") ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
        #expect(exposed.isSuperset(of: ["Retry-After", "RateLimit-Policy", "RateLimit"]), "\(exposed)")
    }
}

/// The reason phrase of a status as the error body names it.
enum HTTPReason {
    static func lowercased(_ status: Int) -> String {
        [
            400: "bad request", 401: "unauthorized", 403: "forbidden", 404: "not found", 405: "method not allowed", 409: "conflict",
            410: "gone", 413: "content too large", 423: "locked", 429: "too many requests", 501: "not implemented",
            503: "service unavailable", 507: "insufficient storage",
        ][status] ?? "status \(status)"
    }
}
