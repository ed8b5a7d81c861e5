import Foundation
import TestSupport
import Testing

/// The Python `websockets` client (an independent, widely used implementation) against a real
/// `corkboard-bench serve` (the server with its test WebSockets) over loopback sockets.
///
/// Serialized: the first test waits for the release build of the server (minutes on CI), and
/// one test waiting holds one thread, where five would hold most of `.threadsOfTheirOwn`. Each
/// test's limit is the build's own bound (`ReleaseBuild`, 20 minutes), as Autobahn's is: a
/// loaded fresh-clone run spent 263 s building before the first echo, past a 5-minute limit.
@Suite(.serialized, .threadsOfTheirOwn) struct PythonClientTests {
    @Test(.runningTimeLimit(.minutes(20)))
    func textAndBinaryMessagesOfEverySizeComeBackIdentical() throws {
        let server = try EchoServerProcess()
        let observed = try PythonClient.run("echo", against: server.echoURL, expecting: EchoObservation.self)
        let sizes = [13, 64 * 1024, 1024 * 1024 - 100]
        // websockets offers permessage-deflate by default: these echoes went compressed both ways.
        #expect(observed.extensions == ["permessage-deflate"])
        #expect(observed.messages.map { "\($0.kind) \($0.size)" } == ["text", "binary"].flatMap { kind in sizes.map { "\(kind) \($0)" } })
        for message in observed.messages {
            #expect(message.identical, "\(message.kind) message of \(message.size) bytes came back as \(message.receivedKind) of \(message.receivedSize)")
            #expect(message.receivedKind == message.kind)
            #expect(message.receivedSize == message.size)
        }
    }

    @Test(.runningTimeLimit(.minutes(20)))
    func theCorkboardSubprotocolIsSelectedWhenOffered() throws {
        let server = try EchoServerProcess()
        let observed = try PythonClient.run("subprotocol", against: server.echoURL, expecting: SubprotocolObservation.self)
        #expect(observed.selected == "corkboard.v1")
        #expect(observed.selectedForUnknownOnly == nil)
    }

    @Test(.runningTimeLimit(.minutes(20)))
    func aPingIsAnsweredWithAPong() throws {
        let server = try EchoServerProcess()
        let observed = try PythonClient.run("ping", against: server.echoURL, expecting: PingObservation.self)
        #expect(observed.pongReceived)
        #expect(observed.echoAfterPing == "after ping")
    }

    /// The server answers the client's close with 1000 and then ends TCP itself (RFC 6455 §7.1.1),
    /// so the client does not wait out its close timeout.
    @Test(.runningTimeLimit(.minutes(20)))
    func theCloseHandshakeCompletesWith1000() throws {
        let server = try EchoServerProcess()
        let observed = try PythonClient.run("close", against: server.echoURL, expecting: CloseObservation.self)
        #expect(observed.closeCodeReceived == 1000)
        #expect(observed.closeSeconds < 2, "closing took \(observed.closeSeconds) s")
    }

    /// (Five minutes like the others: the first test to need the release server builds it.)
    @Test(.runningTimeLimit(.minutes(20)))
    func version8IsRefusedWith426AndTheSupportedVersion() throws {
        let server = try EchoServerProcess()
        let response = try BlockingClient.request(
            port: server.port,
            """
            GET /ws/echo HTTP/1.1\r
            Host: 127.0.0.1:\(server.port)\r
            Upgrade: websocket\r
            Connection: Upgrade\r
            Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r
            Sec-WebSocket-Version: 8\r
            \r

            """)
        #expect(response.status == 426)
        #expect(response.header("Sec-WebSocket-Version") == "13")
        #expect(response.header("Sec-WebSocket-Accept") == nil)
    }
}
