import CorkboardHub
import HTTP
import Sockets
import WebSocket

/// The server's HTTP surface: the board WebSocket, the JSON API, health, static files.
enum Routes {
    static func make(
        configuration: ServerConfiguration, staticFiles: StaticFiles, hub: Hub, metrics: ServerMetrics, traffic: TrafficCounters
    ) -> Router {
        var router = Router(fallback: staticFiles.handle)
        var boardSocket = configuration.webSocket
        // Every application message is JSON text; binary closes with 1003
        // (docs/protocol.md#2-transport).
        boardSocket.acceptsBinary = false
        router.add(.GET, "/ws", WebSocketUpgrade.route(options: boardSocket) { _ in BoardSocket(hub: hub) })
        BoardAPI.add(
            to: &router, hub: hub, allowedOrigins: configuration.webSocket.allowedOrigins,
            outputBound: configuration.maxPendingOutput)
        // A board's page is one page for every board; its script reads the id from the path.
        router.add(.GET, "/b/{id}") { request, responder in
            var page = request
            page.target = "/board.html"
            staticFiles.handle(page, responder)
        }
        router.add(.GET, "/healthz") { _, responder in
            responder.respond(.json(.ok, Array(#"{"status":"ok"}"#.utf8)))
        }
        router.add(.GET, "/metrics") { request, responder in
            // Figures of every board: open in open mode, otherwise for a token allowed to read them.
            guard let holder = HTTPAuthorization.holder(request, hub: hub, responder) else { return }
            guard holder.mayReadMetrics else {
                return responder.respond(.error(.forbidden, "/metrics needs a token of an owner of every board, or one with \"metrics\": true"))
            }
            var response = HTTPResponse(status: .ok, body: metrics.render(traffic: traffic))
            response.headers.set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
            responder.respond(response)
        }
        if configuration.echoEndpoint { BenchEndpoints.add(to: &router, options: configuration.webSocket) }
        return router
    }
}
