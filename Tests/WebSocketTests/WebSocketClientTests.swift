import Foundation
import Glibc
import Synchronization
import TestSupport
import Testing

@testable import Sockets
@testable import WebSocket

/// Collects what a client-side WebSocket receives.
final class ClientInbox: WebSocketHandler, @unchecked Sendable {
    private let lock = NSLock()
    private var messages: [WebSocketMessage] = []
    private var closeCode: WebSocketCloseCode?

    func webSocket(_ socket: WebSocketConnection, didReceive message: WebSocketMessage) {
        lock.withLock { messages.append(message) }
    }

    func webSocketDidClose(_ socket: WebSocketConnection, code: WebSocketCloseCode, reason: String) {
        lock.withLock { closeCode = code }
    }

    var received: [WebSocketMessage] { lock.withLock { messages } }
    var closed: WebSocketCloseCode? { lock.withLock { closeCode } }
}

private func connect(port: UInt16, path: String = "/ws", subprotocols: [String] = [], handler: WebSocketHandler) -> Result<WebSocketConnection, Error>? {
    let outcome = Mutex<Result<WebSocketConnection, Error>?>(nil)
    WebSocketClient.connect(
        host: "127.0.0.1", port: port, path: path, subprotocols: subprotocols,
        loop: IOLoopGroup(count: 1).next(), handler: handler
    ) { result in
        outcome.withLock { $0 = result }
    }
    _ = eventually { outcome.withLock { $0 != nil } }
    return outcome.withLock { $0 }
}

@Suite(.threadsOfTheirOwn) struct WebSocketClientTests {
    @Test func talksToOurServer() throws {
        let server = try WebSocketTestServer()
        let inbox = ClientInbox()
        let socket = try #require(try connect(port: server.port, subprotocols: ["corkboard.v1"], handler: inbox)?.get())
        #expect(socket.subprotocol == "corkboard.v1")
        socket.send(.text("round trip"))
        socket.send(.binary([0, 1, 2]))
        #expect(eventually { inbox.received == [.text("round trip"), .binary([0, 1, 2])] })
        socket.close(.normal)
        #expect(eventually { inbox.closed == .normal })
    }

    @Test func refusedHandshakeIsAnError() throws {
        let server = try WebSocketTestServer()
        let result = try #require(connect(port: server.port, path: "/nowhere", handler: ClientInbox()))
        guard case .failure(let error) = result, case WebSocketClient.Failure.refused(let status, _) = error else {
            Issue.record("expected a refusal, got \(result)")
            return
        }
        #expect(status == 404)
    }

    @Test func closedPortIsAnError() throws {
        // A bound socket that never listens: the port is ours, and connecting is refused.
        let bound = try Socket.tcp(family: AF_INET)
        defer { bound.close() }
        try bound.bind(to: try #require(try SocketAddress.resolve(host: "127.0.0.1", port: 0).first))
        let result = try #require(connect(port: try bound.localAddress().port, handler: ClientInbox()))
        guard case .failure(let error) = result else {
            Issue.record("connected to a closed port")
            return
        }
        #expect((error as? SocketError)?.code == ECONNREFUSED)
    }
}
