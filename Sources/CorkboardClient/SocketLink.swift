import WebSocket

/// The handler of one connection attempt. A new link per attempt lets the client tell the
/// current connection's callbacks from the late ones of a connection it already dropped.
///
/// Confinement: called by `WebSocketConnection` on the client's loop (we connect with it).
final class SocketLink: WebSocketHandler, @unchecked Sendable {
    /// Weak: the socket holds its handler until it closes, and must not keep the client alive.
    private weak var core: ClientCore?

    init(core: ClientCore) {
        self.core = core
    }

    func webSocketDidOpen(_ socket: WebSocketConnection) {
        guard let core else { return socket.close(.goingAway) }
        core.linkOpened(self, socket: socket)
    }

    func webSocket(_ socket: WebSocketConnection, didReceive message: WebSocketMessage) {
        // The protocol is JSON text only; the server never sends binary.
        guard case .text(let text) = message else { return }
        core?.linkReceived(self, text: text)
    }

    func webSocketDidClose(_ socket: WebSocketConnection, code: WebSocketCloseCode, reason: String) {
        core?.linkEnded(self, code: code.rawValue, problem: reason.isEmpty ? "closed with \(code.rawValue)" : "closed with \(code.rawValue): \(reason)")
    }
}
