import CorkboardWire
import Foundation
import HubTestSupport
import TestSupport
import Testing
import WebSocket

/// docs/protocol.md#refusals-of-hello, the hello deadline, in virtual time: the server's loops
/// run on a `ManualLoopClock`, so the deadline is met to the nanosecond, with no sleep. (The
/// socket's deadline is checked by its loop's ticker four times per timeout, from the moment
/// it opened: a tick falls on the deadline itself.)
@Suite(.threadsOfTheirOwn) struct HelloDeadlineTests {
    @Test func aSocketWithoutHelloAtTheDeadlineIsRefusedAndOneThatSaidItJustBeforeIsNot() throws {
        let clock = ManualLoopClock()
        let fixture = try HubFixture { configuration in
            configuration.loopClock = clock
            configuration.hub.helloTimeout = .seconds(10)
        }
        // Both open at the same instant of the loops' clock, which moves only when told.
        let silent = try WebSocketTestClient(port: fixture.port, extraHeaders: "Sec-WebSocket-Protocol: corkboard.v1\r\n")
        let punctual = try WebSocketTestClient(port: fixture.port, extraHeaders: "Sec-WebSocket-Protocol: corkboard.v1\r\n")
        try #require(silent.handshakeResponse.status == 101)
        try #require(punctual.handshakeResponse.status == 101)

        clock.advance(by: .nanoseconds(10_000_000_000 - 1))
        let hello = try WireFormat.encode(ClientMessage.hello(Hello(board: fixture.board.id, name: "Punctual")))
        try punctual.send(text: String(decoding: hello, as: UTF8.self))
        #expect(isWelcome(try decodeServerText(try punctual.receiveText())))

        clock.advance(by: .nanoseconds(1))
        #expect(try silent.receiveText()?.contains("no hello within 10 s") == true)
        #expect(try silent.receiveClose() == .policyViolation)
        // The one that said hello in time is still served: a ping is answered.
        try punctual.send(.ping, [7])
        var answer = try punctual.receiveFrame()
        while let frame = answer, frame.opcode != .pong { answer = try punctual.receiveFrame() }
        #expect(answer?.payload == [7])
    }

    private func isWelcome(_ message: ServerMessage) -> Bool {
        if case .welcome = message { return true }
        return false
    }
}
