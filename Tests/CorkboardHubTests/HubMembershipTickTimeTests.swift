import CorkboardHub
import CorkboardModel
import CorkboardWire
import Dispatch
import HubTestSupport
import TestSupport
import Testing

/// docs/protocol.md#peers: joins and leaves past the announcement rate wait for the membership
/// tick, which tells them together exactly one tick after the first of them — in the hub's
/// time, which the test advances (`ManualClock`), so the tick is seen neither early nor late.
@Suite(.threadsOfTheirOwn) struct HubMembershipTickTimeTests {
    @Test func changesPastTheAnnouncementRateGoOutTogetherAtTheTick() throws {
        let clock = ManualClock()
        let fixture = try HubFixture.announcingPastTwoAtTheTick(on: clock)
        let ada = try fixture.join("Ada")
        let bob = try fixture.join("Bob")
        #expect(try ada.waitFor(type: "peer.joined") == .peerJoined(client: bob.clientID, name: "Bob"))
        let carol = try fixture.join("Carol")
        let dave = try fixture.join("Dave")
        #expect(try ada.sync().isEmpty, "Carol and Dave wait for the tick")

        clock.advance(by: .nanoseconds(99_999_999))
        #expect(try ada.sync().isEmpty, "not a nanosecond before it")
        clock.advance(by: .nanoseconds(1))
        let joined = PeersChange(
            count: 4, joined: [PeerName(client: carol.clientID, name: "Carol"), PeerName(client: dave.clientID, name: "Dave")], left: [],
            truncated: false)
        #expect(try ada.nextMessage() == .peers(joined))

    }
}
