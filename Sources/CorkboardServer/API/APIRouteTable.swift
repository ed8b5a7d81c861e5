import CorkboardHub
import HTTP

/// The JSON API's routes on a router, each behind the one wrapper every `/api` route has: a
/// request from a page of another origin is refused (403), then the caller's access is
/// established as the route declares it (`RouteAccess`: open, a token's holder, an owner of
/// every board, a role on the board the path or the body names), and only then does the handler
/// run, given what was established; every answer carries the CORS headers the request earns.
/// Each path also answers `OPTIONS` (preflight) with the methods registered on it, added by
/// `finish()` once all are known. Every group of routes (`BoardRoutes`, `RevocationRoutes`, …)
/// is added through one, so that none can forget the cross-origin rules or the access check.
struct APIRouteTable {
    private var router: Router
    private let crossOrigin: CrossOrigin
    private let hub: Hub
    /// Each path's methods, in the order the paths were first registered.
    private var methods: [(pattern: String, methods: [HTTPMethod])] = []

    init(on router: Router, crossOrigin: CrossOrigin, hub: Hub) {
        self.router = router
        self.crossOrigin = crossOrigin
        self.hub = hub
    }

    /// `handler` for `method` on `pattern`, run only for a caller with the `access` it needs.
    mutating func add<Grant>(_ method: HTTPMethod, _ pattern: String, _ access: RouteAccess<Grant>, _ handler: @escaping APIHandler<Grant>) {
        if let index = methods.firstIndex(where: { $0.pattern == pattern }) {
            methods[index].methods.append(method)
        } else {
            methods.append((pattern, [method]))
        }
        let crossOrigin = crossOrigin
        let guarded = access.guarding(hub: hub, handler)
        router.add(method, pattern) { request, responder in
            let responder = crossOrigin.responder(for: request, responder)
            if let refusal = crossOrigin.refusal(of: request) { return responder.respond(refusal) }
            guarded(request, responder)
        }
    }

    /// The router with every path's `OPTIONS` added.
    consuming func finish() -> Router {
        let crossOrigin = crossOrigin
        for (pattern, served) in methods {
            router.add(.OPTIONS, pattern) { request, responder in
                let responder = crossOrigin.responder(for: request, responder)
                responder.respond(crossOrigin.refusal(of: request) ?? crossOrigin.preflight(request, methods: served))
            }
        }
        return router
    }
}
