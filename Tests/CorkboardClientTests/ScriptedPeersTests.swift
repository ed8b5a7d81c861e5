import CorkboardClient
import CorkboardModel
import CorkboardWire
import Foundation
import TestSupport
import Testing

/// The Swift client's names after a truncated `peers` tick (docs/protocol.md#peers), against a
/// scripted server: the tick only counted some of its leaves, so the names held cannot be
/// trusted; the client starts them over from the first page.
@Suite(.threadsOfTheirOwn) struct ScriptedPeersTests {
    @Test func aTruncatedTickStartsTheNamesOverFromTheFirstPage() async throws {
        let fake = try FakeServer()
        let client = ScriptedServerTests().client(fake)
        // 61 on the board: the welcome names 50 (n1…n50), 10 more (u1…u10) are only counted.
        let named = (1...50).map { Peer(client: "n\($0)", name: "N\($0)") }
        let stayer = Peer(client: "n50", name: "N50", drag: DragState(items: ["x"], over: nil))
        let script = BlockingWork { () -> JSONObject in
            let connection = try fake.accept()
            _ = try connection.receiveObject()
            try connection.send(
                ScriptedServerTests.text(
                    .welcome(
                        Welcome(
                            client: "c1", role: .owner, epoch: "e1", seq: 0, resumed: false, board: ScriptedServerTests.board, peers: named,
                            count: 61))))
            // 59 leave in one tick: u1…u10 and n1…n49, of which the tick lists 50.
            let left = (1...10).map { "u\($0)" } + (1...40).map { "n\($0)" }
            try connection.send(ScriptedServerTests.text(.peers(PeersChange(count: 2, joined: [], left: left, truncated: true))))
            let request = try connection.receiveObject()
            try connection.send(
                ScriptedServerTests.text(.peersPage(PeersPage(count: 2, peers: [Peer(client: "c1", name: "scripted"), stayer], next: nil))))
            _ = try? connection.receive() // hold the connection until the client leaves
            return request
        }
        try await client.connect()
        #expect(await eventuallyAsync(timeout: 30) { client.memberCount == 2 && client.peers == [stayer] }, "\(client.peers.map(\.client))")
        await client.close()
        let request = try await script.value
        #expect(request == ["type": .string("peers.list"), "limit": .number(Double(MembershipLimits.maximumPage))])
    }
}
