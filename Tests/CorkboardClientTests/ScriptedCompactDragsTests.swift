import CorkboardClient
import CorkboardModel
import CorkboardWire
import Foundation
import TestSupport
import Testing

/// The Swift client and compact presence (docs/protocol.md#compact-drags), against a scripted
/// server: its hello asks for it, and a `drags.compact` batch moves the peers' drags as the
/// long form's changes would.
@Suite(.threadsOfTheirOwn) struct ScriptedCompactDragsTests {
    @Test func theHelloAsksForCompactAndACompactBatchMovesThePeersDrags() async throws {
        let fake = try FakeServer()
        let client = ScriptedServerTests().client(fake)
        let script = ScriptedServerTests.welcoming(
            fake, with: ScriptedServerTests.welcome(seq: 0, peers: [Peer(client: "c9", name: "Bob"), Peer(client: "c4", name: "Cy")], count: 3),
            then: [#"{"changes":[["c9","Bob",["x"],[0,null,"done"]],["c4","Cy",["y"],null],["c4","cancel"]],"type":"drags.compact"}"#])
        try await client.connect()
        let bob = Peer(client: "c9", name: "Bob", drag: DragState(items: ["x"], over: DragTarget(collection: "done", index: 0, before: nil)))
        #expect(
            await eventuallyAsync(timeout: 30) { client.peers.contains(bob) && client.peers.contains(Peer(client: "c4", name: "Cy")) },
            "\(client.peers)")
        await client.close()
        let hello = try await script.value
        #expect(hello["presence"] == .string("compact"))
    }
}
