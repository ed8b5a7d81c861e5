import CorkboardModel
import CorkboardWire
import Testing

@testable import CorkboardHub

/// The room's membership part (`RoomMembership`), driven directly: what is told at once and
/// what waits for the tick, the tick's message, the changes told to other nodes, and the join
/// order shared by this node's members and other nodes' peers. No room, no queue, no clock.
@Suite struct RoomMembershipTests {
    static func peer(_ client: ClientID, order: Int) -> ListedPeer {
        ListedPeer(client: client, name: "name of \(client)", order: order)
    }

    @Test func changesWithinTheBudgetAreToldAtOnceAndTheRestWaitForOneTick() {
        // `peer.joined` of these costs 44 + 2 + 10 = 56 bytes: one fits the budget.
        let membership = RoomMembership(announcementByteRate: RateLimit(perSecond: 1, burst: 100), now: 0)
        let first = membership.join(Self.peer("c1", order: 1), now: 0)
        let second = membership.join(Self.peer("c2", order: 2), now: 0)
        let third = membership.join(Self.peer("c3", order: 3), now: 0)
        #expect(first == .atOnce)
        #expect(second == .atTick(scheduleTick: true), "the first to wait schedules the tick")
        #expect(third == .atTick(scheduleTick: false))
        let tick = membership.tickFired()
        let expected = PeersChange(
            count: 3, joined: [PeerName(client: "c2", name: "name of c2"), PeerName(client: "c3", name: "name of c3")], left: [],
            truncated: false)
        #expect(tick == expected)
        let empty = membership.tickFired()
        #expect(empty == nil, "a tick with nothing to tell sends nothing")
    }

    @Test func whileATickIsScheduledEveryChangeWaitsForItSoTheOrderHolds() {
        let membership = RoomMembership(announcementByteRate: RateLimit(perSecond: 1, burst: 60), now: 0)
        let joined = Self.peer("c1", order: 1)
        _ = membership.join(joined, now: 0)
        let waiting = membership.join(Self.peer("c2", order: 2), now: 0)
        // Budget refilled by then, but the tick is pending: the leave waits too.
        let leave = membership.leave(joined, now: 1_000_000_000_000)
        #expect(waiting == .atTick(scheduleTick: true) && leave == .atTick(scheduleTick: false))
        let tick = membership.tickFired()
        #expect(tick == PeersChange(count: 1, joined: [PeerName(client: "c2", name: "name of c2")], left: ["c1"], truncated: false))
    }

    @Test func aBigBoardTellsEveryChangeAtTheTick() {
        let membership = RoomMembership(announcementByteRate: nil, now: 0)
        let bound = MembershipLimits.listedPeers
        let announcements = (1...bound + 1).map { membership.join(Self.peer("c\($0)", order: $0), now: 0) }
        #expect(announcements.dropLast().allSatisfy { $0 == .atOnce })
        #expect(announcements.last == .atTick(scheduleTick: true))
        #expect(membership.roster.count == bound + 1)
    }

    @Test func otherNodesHearOneTickOfChangesAndTheWholeListReplacesIt() {
        let membership = RoomMembership(announcementByteRate: nil, now: 0)
        let ada = Self.peer("c1", order: 1)
        let firstOfTick = membership.share(joinOf: ada)
        let second = membership.share(joinOf: Self.peer("c2", order: 2))
        let leave = membership.share(leaveOf: ada)
        #expect(firstOfTick && !second && !leave)
        let shared = membership.takeShared()
        #expect(shared.joined == [PeerName(client: "c2", name: "name of c2")], "one who joined and left in a tick is not told")
        #expect(shared.left.isEmpty)
        let next = membership.share(leaveOf: Self.peer("c2", order: 2))
        #expect(next, "a fresh tick after the last was taken")
    }

    @Test func otherNodesPeersTakeTheNextJoinOrders() {
        let membership = RoomMembership(announcementByteRate: nil, now: 0)
        let own = membership.nextJoinOrder()
        let message = NodeMembership(
            node: "n2", board: "b", reset: true, joined: [PeerName(client: "c1-n2", name: "Bo"), PeerName(client: "c2-n2", name: "Cy")])
        let changes = membership.apply(message)
        #expect(own == 1)
        #expect(changes.joined.map(\.order) == [2, 3])
        let next = membership.nextJoinOrder()
        #expect(next == 4)
        #expect(membership.remotePeer("c1-n2")?.node == "n2")
        let gone = membership.nodeGone("n2")
        #expect(gone.map(\.client) == ["c1-n2", "c2-n2"])
        #expect(membership.remotePeer("c1-n2") == nil)
    }
}
