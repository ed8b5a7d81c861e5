import HTTP
import Sockets
import Synchronization
import WebSocket

/// WebSocket endpoints for conformance tests and benchmarks, served only with `--echo-endpoint`:
/// `/ws/echo` returns every message to its sender (Autobahn|Testsuite); `/ws/broadcast` sends
/// every message to everybody connected there, encoded once (the fan-out path the hub uses).
enum BenchEndpoints {
    static func add(to router: inout Router, options: WebSocketOptions) {
        router.add(.GET, "/ws/echo", WebSocketUpgrade.route(options: options) { _ in EchoWebSocketHandler() })
        let room = BroadcastRoom()
        router.add(.GET, "/ws/broadcast", WebSocketUpgrade.route(options: options) { _ in room })
    }
}

/// Everyone on `/ws/broadcast`. Members join and leave on their own loops, hence the lock.
final class BroadcastRoom: WebSocketHandler, Sendable {
    private let members = Mutex<[ObjectIdentifier: WebSocketConnection]>([:])

    func webSocketDidOpen(_ socket: WebSocketConnection) {
        members.withLock { $0[ObjectIdentifier(socket)] = socket }
    }

    func webSocket(_ socket: WebSocketConnection, didReceive message: WebSocketMessage) {
        let broadcast: WebSocketBroadcast
        switch message {
        case .text(let text): broadcast = WebSocketBroadcast(text: text)
        case .binary(let bytes): broadcast = WebSocketBroadcast(opcode: .binary, payload: bytes)
        }
        WebSocketConnection.send(broadcast, to: members.withLock { Array($0.values) })
    }

    func webSocketDidClose(_ socket: WebSocketConnection, code: WebSocketCloseCode, reason: String) {
        _ = members.withLock { $0.removeValue(forKey: ObjectIdentifier(socket)) }
    }
}
