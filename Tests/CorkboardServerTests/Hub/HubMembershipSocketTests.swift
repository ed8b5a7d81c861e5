import CorkboardHub
import CorkboardModel
import CorkboardWire
import Foundation
import TestSupport
import Testing

/// docs/protocol.md#peers and #peers-list over real sockets: a board past the listed bound
/// welcomes with a bounded list and the count, tells a tick's joins in one `peers` message,
/// pages its peers, and answers a bad `peers.list` with `error` while the connection goes on.
@Suite(.threadsOfTheirOwn) struct HubMembershipSocketTests {
    static let bound = MembershipLimits.listedPeers

    @Test func aBigBoardOverSocketsIsBoundedTickedAndPaged() throws {
        // A long tick: the storm's few joins (milliseconds on loopback) fall into one.
        let fixture = try HubFixture { $0.hub.membershipTick = .seconds(2) }
        let crowd = try (0...Self.bound).map { try fixture.join("p\($0)") }
        let first = crowd[0]
        _ = try first.waitFor(type: "peers")

        let storm = try (0..<5).map { try fixture.join("storm\($0)") }
        #expect(storm[0].welcome.count == Self.bound + 2)
        #expect(storm[0].welcome.peers.count == Self.bound)
        #expect(storm[0].welcome.peers.first?.client == crowd.last?.clientID, "the latest first")
        guard case .peers(let change) = try first.waitFor(type: "peers") else { throw HubTestFailure("no peers") }
        #expect(change == PeersChange(count: Self.bound + 6, joined: storm.map { PeerName(client: $0.clientID, name: $0.name) }, left: [], truncated: false))

        let wall = try fixture.join("wall", observe: true)
        #expect(wall.welcome.count == Self.bound + 6, "an observer is not counted")
        try wall.send(json: #"{"type":"peers.list","limit":500}"#)
        let error = try #require(try wall.waitFor(type: "error").errorMessage)
        #expect(error.code == .invalid)
        var seen: [ClientID] = []
        var after: Int?
        for _ in 0..<5 {
            try wall.send(.peersList(after: after, limit: 40))
            let page = try #require(try wall.waitFor(type: "peers.page").peersPage)
            #expect(page.count == Self.bound + 6)
            seen += page.peers.map(\.client)
            guard let next = page.next else { break }
            after = next
        }
        #expect(seen == (crowd + storm).map(\.clientID))
    }
}
