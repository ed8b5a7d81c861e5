import CorkboardClient
import CorkboardModel
import CorkboardWire
import Foundation
import TestSupport
import Testing

/// The Swift client's names after a truncated `peers` tick (docs/protocol.md#peers), against a
/// scripted server: the tick only counted some of its changes, so the names held cannot be
/// trusted. A board small enough to name everyone is named again from a page the client asks
/// for; a big one asks for nothing (a join storm would make every member ask, every tick).
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

    @Test func aTruncatedTickOnABigBoardAsksForNoPageAndKeepsNoMoreNamesThanPeers() async throws {
        let fake = try FakeServer()
        let client = ScriptedServerTests().client(fake)
        let named = (1...50).map { Peer(client: "n\($0)", name: "N\($0)") }
        let newcomers = (1...50).map { PeerName(client: "j\($0)", name: "J\($0)") }
        let script = BlockingWork { () -> JSONObject in
            let connection = try fake.accept()
            _ = try connection.receiveObject()
            try connection.send(
                ScriptedServerTests.text(
                    .welcome(
                        Welcome(
                            client: "c1", role: .owner, epoch: "e1", seq: 0, resumed: false, board: ScriptedServerTests.board, peers: named,
                            count: 500))))
            // 300 more join: still a big board, and the names held stay fewer than the peers.
            try connection.send(ScriptedServerTests.text(.peers(PeersChange(count: 800, joined: newcomers, left: [], truncated: true))))
            // 730 leave, of whom only n1…n10 are listed: 90 names are left for 69 other peers.
            let left = (1...10).map { "n\($0)" }
            try connection.send(ScriptedServerTests.text(.peers(PeersChange(count: 70, joined: [], left: left, truncated: true))))
            // The next thing the client sends is what the test asks for, not a page of its own.
            return try connection.receiveObject()
        }
        try await client.connect()
        #expect(await eventuallyAsync(timeout: 30) { client.memberCount == 70 && client.peers.isEmpty }, "\(client.peers.count) named")
        #expect(await client.listPeers(after: 7, limit: 3))
        #expect(try await script.value == ["type": .string("peers.list"), "after": .number(7), "limit": .number(3)])
        await client.close()
    }
}
