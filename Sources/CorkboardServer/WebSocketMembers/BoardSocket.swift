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
    /// Until the first message: the socket, when its session is refused for not saying
    /// `hello`, and the message size it takes once joined. A box, made while the socket opens
    /// and dropped at the first message: a joined member's socket holds 8 bytes of it.
    private final class HelloWait {
        let socket: WebSocketConnection
        let deadline: DispatchTime
        let maxMessageSize: Int

        init(socket: WebSocketConnection, deadline: DispatchTime, maxMessageSize: Int) {
            self.socket = socket
            self.deadline = deadline
            self.maxMessageSize = maxMessageSize
        }
    }

    private let hub: Hub
    /// The client's address (behind a trusted proxy, the one it forwarded), until the
    /// session has it.
    private var address: String?
    private var session: HubSession?
    private var helloWait: HelloWait?

    init(hub: Hub, address: String?) {
        self.hub = hub
        self.address = address
    }

    func webSocketDidOpen(_ socket: WebSocketConnection) {
        session = hub.makeSession(link: socket, address: address)
        address = nil
        let timeout = hub.configuration.helloTimeout
        helloWait = HelloWait(socket: socket, deadline: socket.connection.loop.clock.now + timeout, maxMessageSize: socket.maxMessageSize)
        // Until it said hello, a client may send no more than a hello needs: a bigger first
        // message ends the connection (1009) at its frame header, its bytes never read.
        socket.maxMessageSize = min(socket.maxMessageSize, HubSession.maximumHelloBytes)
        // Checked four times per timeout: refused between 1 and 1.25 timeouts after opening.
        socket.connection.loop.startTicking(self, every: .nanoseconds(Int(timeout.nanoseconds / 4)))
    }

    func loopDidTick(now: DispatchTime) {
        guard let helloWait, session?.isAwaitingHello == true else { return stopWaitingForHello() }
        guard now >= helloWait.deadline else { return }
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
        guard let wait = helloWait else { return }
        helloWait = nil
        wait.socket.maxMessageSize = wait.maxMessageSize
        wait.socket.connection.loop.stopTicking(self)
    }
}
