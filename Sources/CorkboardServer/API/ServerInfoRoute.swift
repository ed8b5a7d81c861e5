import CorkboardHub
import CorkboardModel
import Foundation
import HTTP

/// `GET /api`: what this server is and speaks (docs/protocol.md#8-http-api): its version, the
/// WebSocket subprotocol, where the SDK and the OpenAPI document are, and whether the asking
/// page's origin may use it. Readable by any page, listed or not (it holds nothing about any
/// board): a page refused at the WebSocket handshake learns only a failed connection from its
/// browser, and reads here why (`originAllowed: false`), so the SDK can say it instead of
/// retrying for ever. `tokenRequired` says whether a request without a token is refused, so
/// that the home page, before it has a token, asks here rather than draw a 401 (which a
/// browser logs as an error) from the board list.
enum ServerInfoRoute {
    static func add(to router: inout Router, allowedOrigins: Set<String>?, hub: Hub) {
        router.add(.GET, "/api") { request, responder in
            let responder = CrossOrigin.readableByAnyOrigin(responder)
            guard QueryParameters.read(request, responder) != nil else { return }
            let origin = request.headers["Origin"]
            var info: [String: JSONValue] = [
                "server": "corkboard", "version": .string(CorkboardVersion.current), "protocol": "corkboard.v1",
                "sdk": "/sdk/v1/corkboard.js", "openapi": "/api/openapi.json",
                // Judged by the policy in force now (a reloaded token file included).
                "tokenRequired": .bool(hub.access.judge(token: nil, checkingLifetime: true) == .missing),
            ]
            if let origin { info["originAllowed"] = .bool(allowedOrigins.map { $0.contains(origin) } ?? true) }
            var response = BoardAPI.json(.ok, JSONValue.object(info))
            // The body says whether the asking origin is allowed: a cache keeps one per origin.
            response.headers.set("Vary", "Origin")
            responder.respond(response)
        }
        // A page may call it with any header: its preflight is answered for every origin too.
        router.add(.OPTIONS, "/api") { _, responder in
            var response = HTTPResponse(status: .noContent, headers: ["Allow": "GET, HEAD, OPTIONS"])
            response.headers.set("Access-Control-Allow-Methods", "GET, HEAD, OPTIONS")
            CrossOrigin.readableByAnyOrigin(responder).respond(response)
        }
    }
}
