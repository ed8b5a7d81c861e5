import CorkboardHub
import HTTP
import Sockets
import WebSocket

/// The server's HTTP surface: the board WebSocket, the JSON API, health, static files, then
/// whatever routes the program embedding the server adds (`CorkboardServer.init`'s `addingRoutes`).
enum Routes {
    static func make(
        configuration: ServerConfiguration, staticFiles: StaticFiles?, hub: Hub, metrics: ServerMetrics, traffic: TrafficCounters,
        readiness: Readiness, webhooks: WebhookDeliverer? = nil, addingRoutes: (inout Router) -> Void = { _ in }
    ) -> Router {
        // Without a web root (an API-only node) every other path is a JSON 404.
        var router = staticFiles.map { Router(fallback: $0.handle) } ?? Router()
        router.observer = { metrics.routes.record($0) }
        var boardSocket = configuration.webSocket
        // Every application message is JSON text; binary closes with 1003
        // (docs/protocol.md#2-transport).
        boardSocket.acceptsBinary = false
        router.add(
            .GET, "/ws",
            WebSocketUpgrade.route(options: boardSocket) { request in
                // Refused hellos are counted per client address, but never for a loopback peer, as
                // the connection limits spare it: local tools, tests and a proxy on the same
                // machine without --trusted-proxies (whose clients would all share its address).
                let counted = request.forwardedClient ?? (request.remoteAddress?.isLoopback == true ? nil : request.clientAddress)
                return BoardSocket(hub: hub, address: counted.map(AddressGroup.of))
            })
        ServerInfoRoute.add(to: &router, allowedOrigins: configuration.webSocket.allowedOrigins, hub: hub)
        BoardAPI.add(
            to: &router, hub: hub, allowedOrigins: configuration.webSocket.allowedOrigins,
            outputBound: configuration.maxPendingOutput, eventStreams: configuration.eventStream, openStreams: metrics.eventStreams,
            node: NodeStatus(readiness: readiness, drainDelay: configuration.drainDelay, store: configuration.store),
            webhooks: webhooks)
        // A board's page is one page for every board; its script reads the id from the path.
        if let staticFiles {
            func page(_ pattern: String, _ file: String) {
                router.add(.GET, pattern) { request, responder in
                    var page = request
                    page.target = file
                    staticFiles.handle(page, responder)
                }
            }
            page("/b/{id}", "/board.html")
            // The operator's page (docs/security.md#the-admin-page): the page is public, what it
            // shows comes from /api/admin for an owner of every board.
            page("/admin", "/admin.html")
            // The browser SDK (web/sdk/) is imported by pages of other origins too, and any page
            // may read it (`Access-Control-Allow-Origin: *`): its files are as public as the board
            // page that imports them, and a page whose origin `--allowed-origins` does not list
            // must load it to be told so (the SDK asks `GET /api` once its socket is refused).
            router.add(.GET, "/sdk/{file}") { request, responder in
                staticFiles.handle(request, CrossOrigin.readableByAnyOrigin(responder))
            }
            // The same files at a path naming the protocol they speak (`corkboard.v1`), so that a
            // page can pin the SDK of v1 while a later server serves a v2 beside it
            // (docs/versioning.md). Today both paths are one folder.
            router.add(.GET, "/sdk/v1/{file}") { request, responder in
                staticFiles.handle(SDKPath.unversioned(request), CrossOrigin.readableByAnyOrigin(responder))
            }
        }
        OperationsRoutes.add(to: &router, hub: hub, metrics: metrics, traffic: traffic, readiness: readiness)
        // Last: the embedding program's routes never shadow the server's (the first match wins).
        addingRoutes(&router)
        return router
    }
}
