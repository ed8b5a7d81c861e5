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
        // Clients of their own, not bare sockets that stop reading after the welcome: the
        // server pings a member silent for 30 s and drops it 10 s later, so a test held up that
        // long in a loaded run lost its whole crowd in one truncated tick (and Ada, counting 1,
        // still named 10 of them).
        var crowd: [BoardClient] = []
        for number in 0..<crowdSize {
            let member = server.client(board: "demo", name: "p\(number)")
            try await member.connect()
            crowd.append(member)
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
        for member in crowd.prefix(3) { await member.close() }
        #expect(await eventuallyAsync { ada.memberCount == crowdSize - 2 && ada.peers.count == crowdSize - 3 })
        // The rest at once: more leaves than a tick lists, as likely as not. Whether the tick
        // named them all or only counted them, Ada ends up alone, naming nobody.
        await withTaskGroup(of: Void.self) { group in
            for member in crowd.dropFirst(3) { group.addTask { await member.close() } }
        }
        #expect(await eventuallyAsync { ada.memberCount == 1 && ada.peers.isEmpty }, "\(ada.memberCount), \(ada.peers.count) named")
        await ada.close()
    }
}
