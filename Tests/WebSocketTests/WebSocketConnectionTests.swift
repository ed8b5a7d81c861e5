import Dispatch
import Foundation
import HTTP
import Logging
import Synchronization
import TestSupport
import Testing

@testable import Sockets
@testable import WebSocket

/// Records what the application side saw, and echoes; "close-me" makes the server start a close.
final class RecordingHandler: WebSocketHandler, @unchecked Sendable {
    private let lock = NSLock()
    private var events: [String] = []
    private(set) var sockets: [WebSocketConnection] = []

    func webSocketDidOpen(_ socket: WebSocketConnection) {
        lock.withLock {
            events.append("open")
            sockets.append(socket)
        }
    }

    func webSocket(_ socket: WebSocketConnection, didReceive message: WebSocketMessage) {
        if message == .text("close-me") {
            socket.close(.policyViolation, reason: "asked")
            return
        }
        lock.withLock { events.append("message") }
        socket.send(message)
    }

    func webSocketDidClose(_ socket: WebSocketConnection, code: WebSocketCloseCode, reason: String) {
        lock.withLock { events.append("close \(code)") }
    }

    var log: [String] { lock.withLock { events } }
    var openSockets: [WebSocketConnection] { lock.withLock { sockets } }
}

/// An HTTP server with one WebSocket route at /ws.
final class WebSocketTestServer {
    let http: HTTPServer
    let port: UInt16
    let handler = RecordingHandler()

    /// `clock`: where the loops' timers take their time (a test's `ManualLoopClock` to move it by hand).
    init(clock: any LoopClock = SystemLoopClock(), configure: (inout WebSocketOptions) -> Void = { _ in }) throws {
        var options = WebSocketOptions()
        options.subprotocols = ["corkboard.v1"]
        configure(&options)
        var router = Router()
        let handler = self.handler
        router.add(.GET, "/ws", WebSocketUpgrade.route(options: options) { _ in handler })
        var logger = Logger(label: "ws-test")
        logger.logLevel = .critical
        http = HTTPServer(router: router, loops: IOLoopGroup(count: 2, clock: clock), logger: logger)
        port = try http.start(host: "127.0.0.1", port: 0).port
    }

    deinit {
        let done = DispatchSemaphore(value: 0)
        http.shutdown(grace: .seconds(2)) { done.signal() }
        _ = done.wait(timeout: .now() + 3)
    }
}

@Suite(.threadsOfTheirOwn) struct WebSocketConnectionTests {
    @Test func echoesAndReportsTheLifecycle() throws {
        let server = try WebSocketTestServer()
        let client = try WebSocketTestClient(port: server.port, extraHeaders: "Sec-WebSocket-Protocol: corkboard.v1\r\n")
        #expect(client.handshakeResponse.status == 101)
        #expect(client.handshakeResponse.header("Sec-WebSocket-Protocol") == "corkboard.v1")
        try client.send(text: "hello")
        #expect(try client.receiveText() == "hello")
        try client.send(.close, [0x03, 0xE8])
        #expect(try client.receiveClose() == .normal)
        #expect(try client.receiveFrame() == nil, "the server closes the TCP connection after the handshake")
        #expect(eventually { server.handler.log == ["open", "message", "close 1000"] })
    }

    @Test func framesSentWithTheHandshakeAreNotLost() throws {
        let server = try WebSocketTestServer()
        let early = WebSocketFrame(opcode: .text, payload: Array("early".utf8)).encoded(maskingKey: (1, 2, 3, 4))
        let client = try WebSocketTestClient(port: server.port, firstFrames: early)
        #expect(try client.receiveText() == "early")
    }

    @Test func largeFragmentedMessageWithPingsInBetween() throws {
        let server = try WebSocketTestServer()
        let client = try WebSocketTestClient(port: server.port)
        let text = String(repeating: "κόσμε-", count: 20_000)
        let bytes = Array(text.utf8)
        let parts = stride(from: 0, to: bytes.count, by: 50_000).map { Array(bytes[$0..<min($0 + 50_000, bytes.count)]) }
        for (index, part) in parts.enumerated() {
            try client.send(index == 0 ? .text : .continuation, part, fin: index == parts.count - 1)
            if index == 1 { try client.send(.ping, Array("mid".utf8)) }
        }
        let pong = try #require(try client.receiveFrame())
        #expect(pong.opcode == .pong && pong.payload == Array("mid".utf8))
        #expect(try client.receiveText() == text)
    }

    @Test func protocolErrorClosesWith1002() throws {
        let server = try WebSocketTestServer()
        let client = try WebSocketTestClient(port: server.port)
        try client.socket.send(WebSocketFrame(opcode: .text, payload: Array("unmasked".utf8)).encoded())
        #expect(try client.receiveClose() == .protocolError)
        #expect(try client.receiveFrame() == nil)
    }

    @Test func messageBeforeAProtocolErrorIsStillAnswered() throws {
        let server = try WebSocketTestServer()
        let client = try WebSocketTestClient(port: server.port)
        // One write: a valid message, then a frame with a reserved bit (Autobahn 3.2).
        try client.socket.send(
            WebSocketFrame(opcode: .text, payload: Array("first".utf8)).encoded(maskingKey: (1, 2, 3, 4))
                + [0xA1, 0x80, 0, 0, 0, 0])
        #expect(try client.receiveText() == "first")
        #expect(try client.receiveClose() == .protocolError)
    }

    @Test func oversizedMessageClosesWith1009() throws {
        let server = try WebSocketTestServer { $0.maxMessageSize = 1000 }
        let client = try WebSocketTestClient(port: server.port)
        try client.send(.binary, [UInt8](repeating: 0, count: 1001))
        #expect(try client.receiveClose() == .messageTooBig)
    }

    @Test func silentPeerIsPingedAndDroppedWhenItDoesNotAnswer() throws {
        let server = try WebSocketTestServer {
            $0.pingInterval = .milliseconds(200)
            $0.pongTimeout = .milliseconds(200)
        }
        let client = try WebSocketTestClient(port: server.port)
        let ping = try #require(try client.receiveFrame())
        #expect(ping.opcode == .ping)
        // Not answering: the server gives up on us.
        #expect(client.socket.isClosedByPeer())
        #expect(eventually { server.handler.log.last == "close 1001" })
    }

    @Test func answeringPingsKeepsTheConnection() throws {
        let server = try WebSocketTestServer {
            $0.pingInterval = .milliseconds(100)
            $0.pongTimeout = .milliseconds(150)
        }
        let client = try WebSocketTestClient(port: server.port)
        for _ in 0..<4 {
            let ping = try #require(try client.receiveFrame())
            #expect(ping.opcode == .ping)
            try client.send(.pong, ping.payload)
        }
        try client.send(text: "still open")
        #expect(try client.receiveText() == "still open")
    }

    @Test func closeHandshakeThePeerNeverCompletesTimesOut() throws {
        let server = try WebSocketTestServer { $0.closeTimeout = .milliseconds(200) }
        let client = try WebSocketTestClient(port: server.port)
        try client.send(text: "close-me")
        #expect(try client.receiveClose() == .policyViolation)
        // We never answer the close: the server closes the TCP connection on its own.
        let started = Date()
        #expect(try client.receiveFrame() == nil)
        // Well under the default 5 s: the configured 200 ms applied (loosely, for a loaded machine).
        #expect(Date().timeIntervalSince(started) < 4)
    }

    @Test func shutdownSendsGoingAway() throws {
        let server = try WebSocketTestServer()
        let client = try WebSocketTestClient(port: server.port)
        #expect(eventually { server.handler.openSockets.count == 1 })
        let done = Atomic<Bool>(false)
        server.http.shutdown(grace: .seconds(5)) { done.store(true, ordering: .relaxed) }
        #expect(try client.receiveClose() == .goingAway)
        try client.send(.close, [0x03, 0xE9])
        #expect(try client.receiveFrame() == nil)
        #expect(eventually { done.load(ordering: .relaxed) })
    }

    @Test func oneEncodedFrameFansOutToEveryMember() throws {
        let server = try WebSocketTestServer()
        let clients = try (0..<50).map { _ in try WebSocketTestClient(port: server.port) }
        #expect(eventually { server.handler.openSockets.count == 50 })
        let broadcast = WebSocketBroadcast(text: #"{"type":"committed","seq":1}"#)
        WebSocketConnection.send(broadcast, to: server.handler.openSockets)
        for client in clients {
            #expect(try client.receiveText() == #"{"type":"committed","seq":1}"#)
        }
    }

    /// The server's two loops each get one hop per broadcast (grouped by loop index), and a
    /// hop keeps its loop's order: every member gets every broadcast once, in the order sent,
    /// whichever loop it is on, also when a broadcast goes to one loop's members alone.
    @Test func broadcastsOverTwoLoopsArriveOnceAndInOrder() throws {
        let server = try WebSocketTestServer()
        let clients = try (0..<20).map { _ in try WebSocketTestClient(port: server.port) }
        #expect(eventually { server.handler.openSockets.count == 20 })
        let sockets = server.handler.openSockets
        #expect(Set(sockets.map(\.connection.loop.index)).count == 2)
        let firstLoop = sockets.filter { $0.connection.loop.index == sockets[0].connection.loop.index }
        for seq in 1...30 {
            // Every fifth broadcast goes to the first loop's members alone (the one-loop path).
            let to = seq % 5 == 0 ? firstLoop : sockets
            WebSocketConnection.send(WebSocketBroadcast(text: "\(seq)"), to: to)
        }
        // Which client is on which loop is not known here: each gets one of the two orders.
        let all = (1...30).map { "\($0)" }
        let withoutFirstLoopOnly = (1...30).filter { $0 % 5 != 0 }.map { "\($0)" }
        var onFirstLoop = 0
        for client in clients {
            var received: [String] = []
            for _ in withoutFirstLoopOnly { received.append(try #require(try client.receiveText())) }
            if received == withoutFirstLoopOnly { continue }
            #expect(received == Array(all.prefix(received.count)))
            for _ in received.count..<all.count { received.append(try #require(try client.receiveText())) }
            #expect(received == all)
            onFirstLoop += 1
        }
        #expect(onFirstLoop == firstLoop.count)
    }
}
