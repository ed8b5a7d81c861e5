import Synchronization
import Testing

@testable import HTTP

/// Runs the router and returns what it answered (every route here answers synchronously).
private func answer(_ router: Router, _ method: HTTPMethod, _ target: String) -> HTTPResponse? {
    let box = Mutex<HTTPResponse?>(nil)
    router.handle(HTTPRequest(method: method, target: target), HTTPResponder(deliver: { response in box.withLock { $0 = response } }))
    return box.withLock { $0 }
}

@Suite struct RouterTests {
    private var router: Router {
        var router = Router(fallback: { _, responder in responder.respond(.text(.ok, "fallback")) })
        router.add(.GET, "/healthz") { _, responder in responder.respond(.text(.ok, "healthy")) }
        router.add(.GET, "/api/boards/{id}") { request, responder in
            responder.respond(.text(.ok, "board \(request.pathParameters["id"] ?? "?")"))
        }
        router.add(.POST, "/api/boards/{id}/ops") { request, responder in
            responder.respond(.text(.ok, "ops \(request.pathParameters["id"] ?? "?")"))
        }
        return router
    }

    @Test func literalRoute() {
        #expect(answer(router, .GET, "/healthz")?.body == Array("healthy".utf8))
    }

    @Test func capturesArePercentDecoded() {
        #expect(answer(router, .GET, "/api/boards/my%20board")?.body == Array("board my board".utf8))
        #expect(answer(router, .POST, "/api/boards/b1/ops")?.body == Array("ops b1".utf8))
    }

    @Test func queryDoesNotAffectMatching() {
        #expect(answer(router, .GET, "/api/boards/b1?x=1")?.body == Array("board b1".utf8))
    }

    @Test func headIsServedWhereGetIs() {
        #expect(answer(router, .HEAD, "/healthz")?.status == .ok)
    }

    @Test func wrongMethodIs405WithAllow() {
        let response = answer(router, .DELETE, "/api/boards/b1")
        #expect(response?.status.code == 405)
        #expect(response?.headers["Allow"] == "GET, HEAD")
    }

    @Test func unknownMethodIs501ExceptOnARoutedPath() {
        #expect(answer(router, HTTPMethod(rawValue: "BREW"), "/pot")?.status.code == 501)
        // A path that is served names its methods, whatever was asked.
        for method in ["BREW", "TRACE", "QUERY"] {
            let response = answer(router, HTTPMethod(rawValue: method), "/api/boards/b1")
            #expect(response?.status.code == 405, "\(method)")
            #expect(response?.headers["Allow"] == "GET, HEAD")
        }
    }

    @Test func unmatchedPathsGoToTheFallback() {
        #expect(answer(router, .GET, "/index.html")?.body == Array("fallback".utf8))
        #expect(answer(router, .GET, "/api/boards")?.body == Array("fallback".utf8))
    }

    @Test func defaultFallbackIs404() {
        #expect(answer(Router(), .GET, "/nothing")?.status.code == 404)
    }
}
