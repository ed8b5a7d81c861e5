import CorkboardModel
import CorkboardWire

/// Who is on a room's board, of every node, and what of it is still to be told
/// (docs/protocol.md#peers; docs/architecture.md, "Several nodes"): the room's part for
/// membership, with its state its own. It keeps the peers in join order (`PeerRoster`), the
/// joins and leaves waiting for this node's membership tick and for the tick that tells the
/// other nodes, the announcement byte budget, and the other nodes' peers (`RemoteRoster`).
/// It decides what goes out at once and what waits for a tick; the room sends and schedules.
/// No queue, no time of its own (the room passes its clock's), confined to the room's queue.
///
/// A class, held by its `BoardRoom` with `let` and, like all of the room's state, used only
/// on the room's queue (or by one test): its state is private, changed only through its methods.
final class RoomMembership {
    /// The peers on the board, every node's, in join order.
    private(set) var roster = PeerRoster()
    /// Join order: each member and each peer of another node takes the next one.
    private(set) var joinCounter = 0
    private var tick = MembershipTick()
    /// What `peer.joined` and `peer.left` may still cost the members at once
    /// (`HubConfiguration.announcementByteRate`); beyond it changes wait for the tick.
    private var announcementBudget: TokenBucket?
    /// The peers of other nodes (a shared store), and this node's joins and leaves waiting
    /// for the tick that tells them to the others.
    private var remote = RemoteRoster()
    private var shared = MembershipTick()

    /// How a change reaches the members.
    enum Announcement: Equatable {
        /// Now, as `peer.joined` or `peer.left`.
        case atOnce
        /// With the next tick's `peers`; `scheduleTick`: the first change of a tick, whose
        /// flush the room schedules.
        case atTick(scheduleTick: Bool)
    }

    init(announcementByteRate: RateLimit?, now: UInt64) {
        announcementBudget = announcementByteRate.map { TokenBucket($0, now: now) }
    }

    /// The join order of the next member or peer.
    func nextJoinOrder() -> Int {
        joinCounter += 1
        return joinCounter
    }

    /// A peer of other nodes, by client.
    func remotePeer(_ client: ClientID) -> ListedPeer? { remote.peers[client] }

    /// The peers of other nodes, in no order.
    var remotePeers: Dictionary<ClientID, ListedPeer>.Values { remote.peers.values }

    // MARK: This node's members

    /// A peer joined (of this node, or of another one): listed, and told now or at the tick.
    func join(_ peer: ListedPeer, now: UInt64) -> Announcement {
        roster.add(peer)
        // `{"client":…,"name":…,"type":"peer.joined"}`: about its bytes.
        // `{"client":…,"hue":359,…}`: 10 bytes more with a hue.
        let announcement = announcement(costing: 44 + peer.client.utf8.count + peer.name.utf8.count + (peer.hue == nil ? 0 : 10), now: now)
        if announcement != .atOnce { tick.join(peer.peerName) }
        return announcement
    }

    /// A peer left: unlisted, and told now or at the tick.
    func leave(_ peer: ListedPeer, now: UInt64) -> Announcement {
        roster.remove(peer)
        let announcement = announcement(costing: 34 + peer.client.utf8.count, now: now)
        if announcement != .atOnce { tick.leave(peer.client) }
        return announcement
    }

    /// The tick came: its `peers` message, encoded once for every member (nil: nothing changed).
    func tickFired() -> PeersChange? {
        tick.flush(count: roster.count)
    }

    /// A small board, with nothing waiting for a tick, hears a change as it happens, while
    /// its changes' bytes stay within the announcement rate: past it (join churn) they wait
    /// for the tick, which tells them all in one message.
    private func announcement(costing bytes: Int, now: UInt64) -> Announcement {
        if tick.isScheduled { return .atTick(scheduleTick: false) }
        if roster.count <= MembershipLimits.listedPeers && announcementBudget?.take(Double(bytes), now: now) != false { return .atOnce }
        tick.isScheduled = true
        return .atTick(scheduleTick: true)
    }

    // MARK: Telling the other nodes

    /// A peer of this node joined or left, to be told to the other nodes at their tick; true
    /// when it is the first of the tick (the room schedules it).
    func share(joinOf peer: ListedPeer) -> Bool {
        shared.join(peer.peerName)
        return scheduleSharing()
    }

    func share(leaveOf peer: ListedPeer) -> Bool {
        shared.leave(peer.client)
        return scheduleSharing()
    }

    /// Every change waiting to be told to the other nodes (their tick came, or the whole list
    /// goes instead), and a fresh tick.
    func takeShared() -> (joined: [PeerName], left: [ClientID]) {
        shared.takeAll()
    }

    private func scheduleSharing() -> Bool {
        guard !shared.isScheduled else { return false }
        shared.isScheduled = true
        return true
    }

    // MARK: Hearing the other nodes

    /// A membership message of another node: the peers it adds and removes here (not listed
    /// or announced yet: the room does that, in order, with `join` and `leave`).
    func apply(_ message: NodeMembership) -> RemoteRoster.Changes {
        var counter = joinCounter
        let changes = remote.apply(message) {
            counter += 1
            return counter
        }
        joinCounter = counter
        return changes
    }

    /// Another node stopped beating: its peers, to be removed.
    func nodeGone(_ node: String) -> [ListedPeer] {
        remote.nodeGone(node)
    }
}
