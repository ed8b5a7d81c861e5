import CorkboardClient
import CorkboardModel
import CorkboardWire
import Foundation
import TestSupport
import Testing

/// The Swift client and a chosen colour (docs/protocol.md#colours), against a scripted server:
/// its hello says the configured hue, and the peers keep theirs from the welcome and from
/// `peer.joined`.
@Suite(.threadsOfTheirOwn) struct ScriptedHueTests {
    @Test func theHelloSaysTheHueAndThePeersKeepTheirs() async throws {
        let fake = try FakeServer()
        let client = ScriptedServerTests().client(fake) { $0.hue = 210 }
        let script = ScriptedServerTests.welcoming(
            fake,
            with: ScriptedServerTests.welcome(
                seq: 0, peers: [Peer(client: "c9", name: "Bob", hue: 0), Peer(client: "c4", name: "Cy")], count: 3, hue: 210),
            then: [#"{"client":"c5","hue":359,"name":"Dee","type":"peer.joined"}"#])
        try await client.connect()
        #expect(
            await eventuallyAsync(timeout: 30) { client.peers.contains(Peer(client: "c5", name: "Dee", hue: 359)) }, "\(client.peers)")
        #expect(client.peers.contains(Peer(client: "c9", name: "Bob", hue: 0)))
        #expect(client.peers.contains(Peer(client: "c4", name: "Cy")))
        await client.close()
        let hello = try await script.value
        #expect(hello["hue"] == .number(210))
    }
}
