import Synchronization
import WebSocket

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
