import HTTP
import Sockets

/// Makes an HTTP route that upgrades to WebSocket: the handshake is checked, the 101 sent,
/// and the connection handed to a `WebSocketConnection` talking to the handler `makeHandler` builds.
public enum WebSocketUpgrade {
    public static func route(
        options: WebSocketOptions,
        makeHandler: @escaping @Sendable (HTTPRequest) -> WebSocketHandler
    ) -> HTTPHandler {
        return { request, responder in
            switch WebSocketHandshake.accept(request, options: options) {
            case .failure(let failure):
                responder.respond(failure.response)
            case .success(let accepted):
                responder.upgrade(accepted.response) { connection in
                    let socket = WebSocketConnection(
                        connection: connection, subprotocol: accepted.subprotocol, options: options,
                        compression: accepted.makeCompression?(), handler: makeHandler(request))
                    socket.open()
                    return socket
                }
            }
        }
    }
}

/// Echoes every message back: the endpoint Autobahn|Testsuite tests the protocol against
/// (`/ws/echo` of `corkboard-bench serve`).
public final class EchoWebSocketHandler: WebSocketHandler {
    public init() {}

    public func webSocket(_ socket: WebSocketConnection, didReceive message: WebSocketMessage) {
        socket.send(message)
    }

    public func webSocketDidClose(_ socket: WebSocketConnection, code: WebSocketCloseCode, reason: String) {}
}
