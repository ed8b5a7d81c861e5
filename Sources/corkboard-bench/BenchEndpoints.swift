import HTTP
import WebSocket

/// The test WebSockets of `corkboard-bench serve`, never in the production `corkboard`:
/// `/ws/echo` returns every message to its sender (Autobahn|Testsuite, the `ws-echo`
/// benchmark); `/ws/broadcast` sends every message to everybody connected there, encoded once
/// (the fan-out path the hub uses, for `ws-fanout`). They take the server's WebSocket options
/// (limits, permessage-deflate, allowed origins) as its board socket does.
enum BenchEndpoints {
    static func add(to router: inout Router, options: WebSocketOptions) {
        router.add(.GET, "/ws/echo", WebSocketUpgrade.route(options: options) { _ in EchoWebSocketHandler() })
        let room = BroadcastRoom()
        router.add(.GET, "/ws/broadcast", WebSocketUpgrade.route(options: options) { _ in room })
    }
}
