import Dispatch
import Sockets
import TestSupport
import Testing

@testable import WebSocket

/// Pings, pong timeouts and closing handshakes on the loop's ticker, in virtual time: the
/// server's loops run on a `ManualLoopClock`, so each deadline is met exactly, with no sleep.
@Suite(.threadsOfTheirOwn) struct WebSocketLivenessTests {
    private static func server(_ clock: ManualLoopClock) throws -> WebSocketTestServer {
        try WebSocketTestServer(clock: clock) { options in
            options.pingInterval = .seconds(30)
            options.pongTimeout = .seconds(10)
            options.closeTimeout = .seconds(5)
        }
    }

    private static func connect(_ server: WebSocketTestServer) throws -> WebSocketTestClient {
        let client = try WebSocketTestClient(port: server.port, extraHeaders: "Sec-WebSocket-Protocol: corkboard.v1\r\n")
        try #require(client.handshakeResponse.status == 101)
        return client
    }

    @Test func aSilentPeerIsPingedAtThePingIntervalAndDroppedAtThePongTimeout() throws {
        let clock = ManualLoopClock()
        let server = try Self.server(clock)
        let talking = try Self.connect(server)
        let silent = try Self.connect(server)
        // Just before the interval nobody was pinged (the echo comes back first), and the
        // message proves `talking` alive for another interval.
        clock.advance(by: .seconds(29))
        try talking.send(text: "early")
        #expect(try talking.receiveText() == "early")
        // At the interval (the ticker runs every 15 s), the peer silent since it opened is pinged.
        clock.advance(by: .seconds(1))
        #expect(try silent.receiveFrame()?.opcode == .ping)
        // It ignores the ping: dropped at the first tick past its pong timeout (45 s), without a close frame.
        clock.advance(by: .seconds(15))
        #expect(try silent.receiveFrame() == nil)
        #expect(eventually { server.handler.log.contains("close \(WebSocketCloseCode.goingAway)") })
        // The one that spoke is still served, and never was pinged.
        try talking.send(text: "still here")
        #expect(try talking.receiveText() == "still here")
    }

    @Test func aClosingHandshakeThePeerNeverAnswersEndsAtTheCloseTimeout() throws {
        let clock = ManualLoopClock()
        let server = try Self.server(clock)
        let client = try Self.connect(server)
        try client.send(text: "close-me")
        #expect(try client.receiveClose() == .policyViolation)
        // The peer never sends its close frame: at the close timeout (checked every 100 ms
        // while closing) the connection is cut, and the WebSocket ends as dropped.
        clock.advance(by: .seconds(5))
        #expect(try client.receiveFrame() == nil)
        #expect(eventually { server.handler.log.last == "close \(WebSocketCloseCode.abnormal)" })
    }
}
