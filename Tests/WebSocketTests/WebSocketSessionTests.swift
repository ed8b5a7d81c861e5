import Testing

@testable import WebSocket

/// A client frame as a browser sends it: masked.
private func clientFrame(_ opcode: WebSocketOpcode, _ payload: [UInt8], fin: Bool = true) -> [UInt8] {
    WebSocketFrame(fin: fin, opcode: opcode, payload: payload).encoded(maskingKey: (0xA1, 0xB2, 0xC3, 0xD4))
}

private func serverFrame(_ opcode: WebSocketOpcode, _ payload: [UInt8]) -> [UInt8] {
    WebSocketFrame(opcode: opcode, payload: payload).encoded()
}

private func closeBytes(_ code: UInt16, _ reason: String = "") -> [UInt8] {
    [UInt8(code >> 8), UInt8(code & 0xFF)] + Array(reason.utf8)
}

@Suite struct WebSocketSessionTests {
    @Test func messagesAreDelivered() {
        var session = WebSocketSession(role: .server, maxMessageSize: 1024)
        #expect(
            session.receive(clientFrame(.text, Array("hi".utf8)) + clientFrame(.binary, [1, 2])) == [
                .deliver(.text("hi")), .deliver(.binary([1, 2])),
            ])
    }

    @Test func pingIsAnsweredWithTheSamePayload() {
        var session = WebSocketSession(role: .server, maxMessageSize: 1024)
        #expect(session.receive(clientFrame(.ping, [7, 8, 9])) == [.write(serverFrame(.pong, [7, 8, 9]))])
    }

    @Test func pongNeedsNoAction() {
        var session = WebSocketSession(role: .server, maxMessageSize: 1024)
        #expect(session.receive(clientFrame(.pong, [1])) == [])
        #expect(session.state == .open)
    }

    @Test func peerCloseIsEchoedAndEndsTheSession() {
        var session = WebSocketSession(role: .server, maxMessageSize: 1024)
        let actions = session.receive(clientFrame(.close, closeBytes(1000, "done")) + clientFrame(.text, Array("late".utf8)))
        #expect(actions == [.write(serverFrame(.close, closeBytes(1000))), .closeTransport, .finished(.normal, "done")])
        #expect(session.state == .closed)
    }

    @Test func emptyCloseIsAnsweredWithAnEmptyClose() {
        var session = WebSocketSession(role: .server, maxMessageSize: 1024)
        #expect(session.receive(clientFrame(.close, [])) == [.write(serverFrame(.close, [])), .closeTransport, .finished(.noStatus, "")])
    }

    @Test func ourCloseWaitsForThePeers() {
        var session = WebSocketSession(role: .server, maxMessageSize: 1024)
        #expect(session.close(.goingAway, reason: "bye") == [.write(serverFrame(.close, closeBytes(1001, "bye")))])
        #expect(session.state == .closing)
        // Data after our close is dropped; pings are not answered; the peer's close ends it.
        #expect(session.receive(clientFrame(.text, Array("x".utf8))) == [])
        #expect(session.receive(clientFrame(.close, closeBytes(1001))) == [.closeTransport, .finished(.goingAway, "")])
        #expect(session.close(.normal) == [])
    }

    @Test(
        arguments: [
            (clientFrame(.close, [0x03]), WebSocketCloseCode.protocolError),
            (clientFrame(.close, closeBytes(1005)), .protocolError),
            (clientFrame(.close, closeBytes(1000) + [0xFF]), .invalidPayload),
            (clientFrame(.text, [0xC0, 0x80]), .invalidPayload),
            (serverFrame(.text, Array("unmasked".utf8)), .protocolError),
            (clientFrame(.continuation, [1]), .protocolError),
            (clientFrame(.binary, [UInt8](repeating: 0, count: 2000)), .messageTooBig),
        ] as [([UInt8], WebSocketCloseCode)])
    func violationsSendTheRightCloseCode(bytes: [UInt8], code: WebSocketCloseCode) throws {
        var session = WebSocketSession(role: .server, maxMessageSize: 1024)
        let actions = session.receive(bytes)
        guard case .write(let written)? = actions.first else {
            Issue.record("no close frame: \(actions)")
            return
        }
        var parser = WebSocketFrameParser(role: .client)
        parser.append(written)
        let frame = try #require(try parser.next())
        #expect(frame.opcode == .close)
        #expect(try WebSocketClosePayload(parsing: frame.payload).code == code)
        #expect(actions.dropFirst().first == .closeTransport)
        #expect(session.state == .closed)
    }

    @Test func binaryIsRefusedWhenTheEndpointSpeaksTextOnly() {
        var session = WebSocketSession(role: .server, maxMessageSize: 1024, acceptsBinary: false)
        let actions = session.receive(clientFrame(.binary, [1]))
        #expect(actions.last == .finished(.unsupportedData, WebSocketError.binaryNotAccepted.reason))
    }

    @Test func nothingIsProcessedAfterAFailure() {
        var session = WebSocketSession(role: .server, maxMessageSize: 1024)
        _ = session.receive(clientFrame(.continuation, [1]))
        #expect(session.receive(clientFrame(.text, Array("x".utf8))) == [])
    }

    @Test func transportLossFinishesAbnormally() {
        var session = WebSocketSession(role: .server, maxMessageSize: 1024)
        #expect(session.transportEnded() == [.finished(.abnormal, "")])
        #expect(session.transportEnded() == [])
    }

    @Test func clientSessionsMaskWhatTheySend() throws {
        let session = WebSocketSession(role: .client, maxMessageSize: 1024)
        var parser = WebSocketFrameParser(role: .server)
        parser.append(session.frame(.text, Array("masked".utf8)))
        #expect(try parser.next()?.payload == Array("masked".utf8))
    }
}
