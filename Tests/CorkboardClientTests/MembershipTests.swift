import CorkboardClient
import CorkboardModel
import CorkboardWire
import Foundation
import TestSupport
import Testing

/// The Swift client on a board past the listed bound (docs/protocol.md#peers): `memberCount`
/// follows the welcome, `peer.joined` and the ticks' `peers`; `listPeers` pages the rest.
@Suite(.threadsOfTheirOwn) struct MembershipTests {
    @Test func memberCountAndPeersFollowABigBoardAndPagesAddTheRest() async throws {
        let server = try CorkboardTestServer()
        let ada = server.client(board: "demo", name: "Ada")
        let welcome = try await ada.connect()
        #expect(welcome.count == 1)
        #expect(ada.memberCount == 1)
        let crowdSize = MembershipLimits.listedPeers + 10
        // Plain sockets that say hello and read their welcome; what follows waits unread.
        var crowd: [WebSocketTestClient] = []
        for number in 0..<crowdSize {
            let socket = try WebSocketTestClient(port: server.port)
            try socket.send(text: #"{"type":"hello","board":"demo","name":"p\#(number)"}"#)
            #expect(try socket.receiveText()?.contains(#""type":"welcome""#) == true)
            crowd.append(socket)
        }
        // The first joins one by one, the rest in ticks: all of them named and counted.
        #expect(await eventuallyAsync { ada.memberCount == crowdSize + 1 && ada.peers.count == crowdSize })
        #expect(Set(ada.peers.map(\.name)) == Set((0..<crowdSize).map { "p\($0)" }))

        let pages = EventRecorder(ada)
        #expect(await ada.listPeers(limit: 25))
        let page = await pages.first { if case .peersPage(let page) = $0 { page } else { nil } }
        #expect(page?.count == crowdSize + 1)
        #expect(page?.peers.first?.name == "Ada", "join order: Ada first")
        #expect(page?.peers.count == 25)
        #expect(page?.next != nil)

        // A tick's leaves.
        for socket in crowd.prefix(3) { try socket.sendClose() }
        #expect(await eventuallyAsync { ada.memberCount == crowdSize - 2 && ada.peers.count == crowdSize - 3 })
        crowd.removeAll() // their sockets close with them
        await ada.close()
    }
}
