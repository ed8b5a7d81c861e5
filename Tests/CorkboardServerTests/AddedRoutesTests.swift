import HTTP
import TestSupport
import Testing

/// `CorkboardServer.init`'s `addingRoutes`, how a program embedding the server serves routes of
/// its own (`corkboard-bench serve` its test WebSockets): they are served, after the server's,
/// so a path the server serves stays the server's.
@Suite(.threadsOfTheirOwn) struct AddedRoutesTests {
    @Test func addedRoutesAreServedBesideTheServersOwn() throws {
        let server = try TestServer(addingRoutes: { router in
            router.add(.GET, "/extra/{name}") { request, responder in
                responder.respond(.text(.ok, "extra \(request.pathParameters["name"] ?? "")"))
            }
        })
        let added = try server.get("/extra/one")
        #expect(added.status == 200 && added.text == "extra one")
        // HEAD wherever GET, as for the server's own routes.
        #expect(try server.request("HEAD /extra/one HTTP/1.1\r\nHost: t\r\n\r\n", bodyless: true).status == 200)
        #expect(try server.get("/healthz").status == 200)
    }

    @Test func anAddedRouteNeverShadowsTheServersOwn() throws {
        let server = try TestServer(addingRoutes: { router in
            router.add(.GET, "/healthz") { _, responder in responder.respond(.text(.conflict, "shadowed")) }
        })
        let health = try server.get("/healthz")
        #expect(health.status == 200 && !health.text.contains("shadowed"))
    }
}
