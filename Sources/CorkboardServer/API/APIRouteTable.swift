import HTTP

/// Registers one route of the JSON API: `route(.GET, "/api/…", handler)`. Every group of routes
/// (`BoardRoutes`, `RevocationRoutes`, …) is added through one, so that none can forget the
/// cross-origin rules.
typealias APIRoute = (HTTPMethod, String, @escaping HTTPHandler) -> Void

/// The JSON API's routes on a router, each behind the one wrapper every `/api` route has: a
/// request from a page of another origin is refused (403) before its handler runs, and every
/// answer carries the CORS headers the request earns. Each path also answers `OPTIONS`
/// (preflight) with the methods registered on it, added by `finish()` once all are known.
struct APIRouteTable {
    private let crossOrigin: CrossOrigin
    /// Each path's methods, in the order the paths were first registered.
    private var methods: [(pattern: String, methods: [HTTPMethod])] = []

    init(crossOrigin: CrossOrigin) { self.crossOrigin = crossOrigin }

    mutating func add(_ method: HTTPMethod, _ pattern: String, to router: inout Router, _ handler: @escaping HTTPHandler) {
        if let index = methods.firstIndex(where: { $0.pattern == pattern }) {
            methods[index].methods.append(method)
        } else {
            methods.append((pattern, [method]))
        }
        let crossOrigin = crossOrigin
        router.add(method, pattern) { request, responder in
            let responder = crossOrigin.responder(for: request, responder)
            if let refusal = crossOrigin.refusal(of: request) { return responder.respond(refusal) }
            handler(request, responder)
        }
    }

    /// Adds every path's `OPTIONS`.
    func finish(on router: inout Router) {
        let crossOrigin = crossOrigin
        for (pattern, served) in methods {
            router.add(.OPTIONS, pattern) { request, responder in
                let responder = crossOrigin.responder(for: request, responder)
                responder.respond(crossOrigin.refusal(of: request) ?? crossOrigin.preflight(request, methods: served))
            }
        }
    }
}
