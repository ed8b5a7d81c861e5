import CorkboardWire
import Foundation
import TestSupport
import Testing
import WebSocket

/// Clients that hold connections open by sending slowly or not at all: an HTTP head that
/// trickles in, a WebSocket handshake that trickles in, a WebSocket that never says hello (or
/// trickles it), and a crowd of silent connections. Each is closed at its deadline, with 408
/// or close 1008, while a well-behaved client carries on.
@Suite(.threadsOfTheirOwn) struct HostileSlowlorisTests {
    static func fixture() throws -> HubFixture {
        try HubFixture { configuration in
            configuration.http.headerTimeout = .milliseconds(800)
            configuration.hub.helloTimeout = .milliseconds(800)
        }
    }

    /// Sends `bytes` one at a time every `interval` seconds until the server answers or closes;
    /// returns what it answered and how long the trickle lasted.
    static func trickle(_ bytes: [UInt8], port: UInt16, interval: Double = 0.1) throws -> (answer: [UInt8], seconds: Double) {
        let client = try BlockingClient(port: port, timeout: 5)
        let started = Date()
        for byte in bytes {
            // The answer has come: the server's lingering close reads (and discards) what is
            // still sent for a while, so sending alone would not notice.
            if client.waitUntilReadable(timeout: 0) { break }
            do { try client.send([byte]) } catch { break }
            usleep(UInt32(interval * 1_000_000))
            if Date().timeIntervalSince(started) > 4 { break }
        }
        let answer = (try? client.receiveUntilClosed()) ?? []
        return (answer, Date().timeIntervalSince(started))
    }

    @Test func aTrickledHTTPHeadGets408AtTheDeadline() async throws {
        try await offPool {
            let fixture = try Self.fixture()
            let port = fixture.port
            let before = try Unharmed.seed(port: port)
            let head = Array("GET /api/boards/board HTTP/1.1\r\nHost: t\r\nX-Padding: \(String(repeating: "a", count: 100))\r\n\r\n".utf8)
            let trickler = Background { try Self.trickle(head, port: port) }
            // Meanwhile the board is served as usual.
            try Unharmed.expect(port: port, eventsBefore: before)
            let (answer, seconds) = try trickler.wait()
            #expect(String(decoding: answer, as: UTF8.self).hasPrefix("HTTP/1.1 408"))
            #expect(seconds < 2.5, "closed \(seconds) s into the trickle")
            try Unharmed.expect(port: port, eventsBefore: try Unharmed.events(port: port, board: "board", token: nil))
        }
    }

    @Test func aTrickledWebSocketHandshakeGets408AtTheDeadline() async throws {
        try await offPool {
            let fixture = try Self.fixture()
            let port = fixture.port
            let before = try Unharmed.seed(port: port)
            let handshake = Array(
                ("GET /ws HTTP/1.1\r\nHost: t\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                    + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n").utf8)
            let trickler = Background { try Self.trickle(handshake, port: port) }
            try Unharmed.expect(port: port, eventsBefore: before)
            let (answer, seconds) = try trickler.wait()
            #expect(String(decoding: answer, as: UTF8.self).hasPrefix("HTTP/1.1 408"))
            #expect(seconds < 2.5)
        }
    }

    @Test func aWebSocketThatNeverSaysHelloOrTricklesItIsClosedWith1008() async throws {
        try await offPool {
            let fixture = try Self.fixture()
            let port = fixture.port
            let before = try Unharmed.seed(port: port)
            // Silent after the upgrade.
            let silent = try WebSocketTestClient(port: port)
            // A hello whose frame arrives a byte at a time, never complete before the deadline.
            let trickling = try WebSocketTestClient(port: port)
            let hello = #"{"type":"hello","board":"board","name":"Slow"}"#
            let frame = WebSocketFrame(opcode: .text, payload: Array(hello.utf8)).encoded(maskingKey: (1, 2, 3, 4))
            let started = Date()
            for byte in frame.prefix(frame.count - 1) {
                try trickling.socket.send([byte])
                usleep(30_000)
                if Date().timeIntervalSince(started) > 1.5 { break }
            }
            for socket in [silent, trickling] {
                let error = try decodeServerText(try socket.receiveText()).errorMessage
                #expect(error?.code == .invalid)
                #expect(error?.message.contains("no hello") == true)
                #expect(try socket.receiveClose() == .policyViolation)
            }
            try Unharmed.expect(port: port, eventsBefore: before)
        }
    }

    @Test func aCrowdOfSilentConnectionsIsClosedAtTheDeadline() async throws {
        try await offPool {
            let fixture = try Self.fixture()
            let port = fixture.port
            let before = try Unharmed.seed(port: port)
            let crowd = try (0..<200).map { _ in try BlockingClient(port: port, timeout: 4) }
            try Unharmed.expect(port: port, eventsBefore: before)
            // Each client gives up after 4 s: closed before that, every one, or the test fails.
            for client in crowd { #expect(client.isClosedByPeer()) }
            #expect(eventually(timeout: 10) { fixture.server.server.connectionCount == 0 })
        }
    }
}
