import CorkboardHub
import HTTP
import Sockets
import WebSocket

/// What operators and their tools ask: liveness, readiness, metrics.
enum OperationsRoutes {
    static func add(to router: inout Router, hub: Hub, metrics: ServerMetrics, traffic: TrafficCounters, readiness: Readiness) {
        // Liveness: the process answers HTTP. Says nothing of the store, so that a restart
        // is never the answer to a database outage.
        router.add(.GET, "/healthz") { _, responder in
            responder.respond(.json(.ok, Array(#"{"status":"ok"}"#.utf8)))
        }
        // Readiness: worth sending traffic to, i.e. not draining and the store answers.
        router.add(.GET, "/readyz") { _, responder in
            guard !readiness.isShuttingDown else { return responder.respond(notReady("draining: the server is shutting down")) }
            guard !readiness.isDrainAsked else {
                return responder.respond(notReady("draining: an owner drained this node (POST /api/admin/drain)"))
            }
            StoreProbe.countBoards(hub: hub) { result in
                switch result {
                case .success: responder.respond(.json(.ok, Array(#"{"status":"ready"}"#.utf8)))
                case .failure(let failure): responder.respond(notReady(failure.description))
                }
            }
        }
        // Figures of every board: open in open mode, otherwise for a token allowed to read them.
        // Not an `/api` route (no CORS), but its access is declared as theirs is.
        let metricsReader = RouteAccess.metricsReader(refusal: "/metrics needs a token of an owner of every board, or one with \"metrics\": true")
        router.add(
            .GET, "/metrics",
            metricsReader.guarding(hub: hub) { _, _, responder in
                // A store that does not answer keeps the last count; the scrape still succeeds.
                StoreProbe.countBoards(hub: hub) { result in
                    if case .success(let count) = result { metrics.recordStoredBoards(count) }
                    var response = HTTPResponse(status: .ok, body: metrics.render(traffic: traffic))
                    response.headers.set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
                    responder.respond(response)
                }
            })
    }

    /// 503 `{"status":"unavailable","reason":"…"}`, with the `error` and `message` every error
    /// body has (docs/protocol.md#conventions) beside what load balancers' checks already read.
    private static func notReady(_ reason: String) -> HTTPResponse {
        let reason = JSONString.quote(reason)
        return .json(
            .serviceUnavailable,
            Array(#"{"status":"unavailable","reason":\#(reason),"error":"service unavailable","message":\#(reason)}"#.utf8))
    }
}
