import CorkboardHub
import Dispatch
import Sockets
import WebSocket

/// One WebSocket on `/ws`, handed to a `HubSession`: text messages go to the session, the end of
/// the connection too, and the hello deadline is kept here, on the socket's loop.
///
/// The deadline is checked by the loop's ticker until `hello` (or anything else) arrives: a
/// timer block holding the session weakly would give the session and the socket side tables,
/// making every retain of them on the broadcast path slower.
///
/// Confinement: every call arrives on the socket's loop, hence `@unchecked Sendable`.
final class BoardSocket: WebSocketHandler, LoopTickable, @unchecked Sendable {
    private let hub: Hub
    /// The client's address (behind a trusted proxy, the one it forwarded).
    private let address: String?
    private var session: HubSession?
    /// Until the first message: the socket, when its session is refused for not saying
    /// `hello`, and the message size it takes once joined.
    private var helloWait: (socket: WebSocketConnection, deadline: DispatchTime, maxMessageSize: Int)?

    init(hub: Hub, address: String?) {
        self.hub = hub
        self.address = address
    }

    func webSocketDidOpen(_ socket: WebSocketConnection) {
        session = hub.makeSession(link: socket, address: address)
        let timeout = hub.configuration.helloTimeout
        helloWait = (socket, socket.connection.loop.clock.now + timeout, socket.maxMessageSize)
        // Until it said hello, a client may send no more than a hello needs: a bigger first
        // message ends the connection (1009) at its frame header, its bytes never read.
        socket.maxMessageSize = min(socket.maxMessageSize, HubSession.maximumHelloBytes)
        // Checked four times per timeout: refused between 1 and 1.25 timeouts after opening.
        socket.connection.loop.startTicking(self, every: .nanoseconds(Int(timeout.nanoseconds / 4)))
    }

    func loopDidTick(now: DispatchTime) {
        guard let (_, deadline, _) = helloWait, session?.isAwaitingHello == true else { return stopWaitingForHello() }
        guard now >= deadline else { return }
        stopWaitingForHello()
        session?.helloDeadlinePassed()
    }

    func webSocket(_ socket: WebSocketConnection, didReceive message: WebSocketMessage) {
        // Binary messages never get here: the socket closes them with 1003 (docs/protocol.md#close-codes).
        guard case .text(let text) = message else { return }
        session?.receive(text)
        // After its first message a session is joined or refused: no deadline any more.
        if helloWait != nil && session?.isAwaitingHello != true { stopWaitingForHello() }
    }

    func webSocketDidClose(_ socket: WebSocketConnection, code: WebSocketCloseCode, reason: String) {
        session?.linkClosed()
        session = nil
        stopWaitingForHello()
    }

    private func stopWaitingForHello() {
        guard let (socket, _, maxMessageSize) = helloWait else { return }
        helloWait = nil
        socket.maxMessageSize = maxMessageSize
        socket.connection.loop.stopTicking(self)
    }
}
