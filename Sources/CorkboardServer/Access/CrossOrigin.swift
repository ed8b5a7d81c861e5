import HTTP

/// Cross-origin calls to `/api` (CORS, docs/protocol.md#8-http-api): with `--allowed-origins`,
/// the pages of those origins may call the API from a browser, and those of any other origin
/// are refused (403, preflight included). Without the list nothing is refused and no page of
/// another origin is told it may read an answer: same-origin pages and programs only.
///
/// No credentials mode: tokens travel in `Authorization`, never in cookies, so an answer is
/// never shared with a page on the strength of what the browser holds.
struct CrossOrigin: Sendable {
    /// nil: no `--allowed-origins`.
    let allowedOrigins: Set<String>?

    /// The request headers a page may send: the token, the JSON body's type, and the event
    /// stream's resume point (sent by EventSource itself, and by fetch-based SSE clients).
    static let allowedHeaders = "Authorization, Content-Type, Last-Event-ID"
    /// How long a browser may keep a preflight's answer: ten minutes, so a page making many
    /// calls asks once, and a change of the list is seen soon enough.
    static let maxAge = "600"

    /// The 403 for a request whose `Origin` is not listed; nil when it may go on.
    func refusal(of request: HTTPRequest) -> HTTPResponse? {
        guard let allowedOrigins, let origin = request.headers["Origin"], !allowedOrigins.contains(origin) else { return nil }
        return .error(.forbidden, "origin \(origin) is not allowed")
    }

    /// `responder`, adding to each response what lets an allowed page read it. `Vary: Origin`
    /// on every answer while there is a list, so a cache never gives one origin's answer to another.
    func responder(for request: HTTPRequest, _ responder: HTTPResponder) -> HTTPResponder {
        guard let allowedOrigins else { return responder }
        let origin = request.headers["Origin"].flatMap { allowedOrigins.contains($0) ? $0 : nil }
        @Sendable func shared(_ response: HTTPResponse) -> HTTPResponse {
            var response = response
            // Added to a Vary already there (a static file's `Accept-Encoding`), never replacing it.
            response.headers.set("Vary", response.headers["Vary"].map { "\($0), Origin" } ?? "Origin")
            if let origin {
                response.headers.set("Access-Control-Allow-Origin", origin)
                // A 429's `Retry-After` and RateLimit fields say when to try again; a page must be able to read them.
                response.headers.set("Access-Control-Expose-Headers", RateLimitFields.exposed.joined(separator: ", "))
            }
            return response
        }
        // An event stream's head is sent by taking the connection over: it is shared the same way.
        return HTTPResponder(
            deliver: { responder.respond(shared($0)) },
            switchProtocols: { responder.upgrade(shared($0), to: $1, ifGone: $2) })
    }

    /// `responder`, letting a page of any origin read each answer, listed or not: for what is as
    /// public as the board page (the SDK's files, `GET /api`). No credentials: none is ever needed.
    static func readableByAnyOrigin(_ responder: HTTPResponder) -> HTTPResponder {
        @Sendable func shared(_ response: HTTPResponse) -> HTTPResponse {
            var response = response
            response.headers.set("Access-Control-Allow-Origin", "*")
            return response
        }
        return HTTPResponder(deliver: { responder.respond(shared($0)) }, switchProtocols: { responder.upgrade(shared($0), to: $1, ifGone: $2) })
    }

    /// The answer to `OPTIONS` on a path served with `methods`: 204 with `Allow`, and for a
    /// listed origin what a browser's preflight asks (methods, headers, how long to keep it).
    func preflight(_ request: HTTPRequest, methods: [HTTPMethod]) -> HTTPResponse {
        let allowed = (methods.contains(.GET) ? methods + [.HEAD] : methods) + [.OPTIONS]
        let list = allowed.map(\.rawValue).joined(separator: ", ")
        var response = HTTPResponse(status: .noContent, headers: ["Allow": list])
        if let origin = request.headers["Origin"], allowedOrigins?.contains(origin) == true {
            response.headers.set("Access-Control-Allow-Methods", list)
            response.headers.set("Access-Control-Allow-Headers", Self.allowedHeaders)
            response.headers.set("Access-Control-Max-Age", Self.maxAge)
        }
        return response
    }
}
