import CorkboardModel
import CorkboardWire
import Dispatch

/// Membership across nodes (docs/architecture.md, "Several nodes"). Each node
/// tells the others its peers' joins and leaves once a membership tick, and its whole list
/// when asked; a room lists and announces the peers of other nodes like its own, bounded
/// and coalesced the same way (docs/protocol.md#peers). A room that loads asks every live
/// node for its list and admits nobody until all answered (or `listWait` passed), so the
/// first `welcome` lists everyone; the peers of a node that stops beating leave.
extension BoardRoom {
    /// How long a loading room waits for the other nodes' lists: a node that died but is not
    /// known dead yet never answers.
    static let listWait: DispatchTimeInterval = .seconds(1)

    // MARK: Telling the other nodes

    /// A peer of this node joined or left: the other nodes hear of it with the next tick.
    func shareJoin(of peer: ListedPeer) {
        guard hub.cluster != nil, membership.share(joinOf: peer) else { return }
        scheduleSharing()
    }

    func shareLeave(of peer: ListedPeer) {
        guard hub.cluster != nil, membership.share(leaveOf: peer) else { return }
        scheduleSharing()
    }

    /// The first change of a tick: the tick that tells the other nodes.
    private func scheduleSharing() {
        hub.clock.schedule(after: hub.configuration.membershipTick, on: queue) {
            guard let cluster = self.hub.cluster else { return }
            let (joined, left) = self.membership.takeShared()
            for part in NodeMembership.changes(node: cluster.nodeName, board: self.id, joined: joined, left: left) {
                cluster.publish(presence: part.encoded())
            }
        }
    }

    /// Tells the other nodes this node's whole list (which replaces what they had of it),
    /// asking them for theirs when `asking` (every node, or the one named `to`).
    func shareList(asking: Bool, to: String? = nil) {
        guard let cluster = hub.cluster else { return }
        // The list holds every change still waiting for the tick (which then finds none).
        _ = membership.takeShared()
        let own = members.values.filter { !$0.observes }.sorted { $0.order < $1.order }
        let peers = own.map { PeerName(client: $0.client, name: $0.name, hue: $0.listing?.hue) }
        for part in NodeMembership.list(node: cluster.nodeName, board: id, peers: peers, asking: asking, to: to) {
            cluster.publish(presence: part.encoded())
        }
    }

    /// The store reconnected, and messages may have been lost: this room tells its list and
    /// asks for everyone's again.
    func shareListAgain() {
        queue.async { self.shareList(asking: true) }
    }

    // MARK: Hearing them

    /// A loading room asks every live node for its list, then runs `loaded` once all
    /// answered or `listWait` passed.
    func gatherLists(then loaded: @escaping () -> Void) {
        guard hub.cluster != nil else { return loaded() }
        let ready = listGathering.start(awaiting: hub.liveNodes(), then: loaded)
        shareList(asking: true)
        if let ready { return ready() }
        hub.clock.schedule(after: Self.listWait, on: queue) { self.listWaitPassed() }
    }

    private func listWaitPassed() {
        guard let passed = listGathering.waitPassed() else { return }
        if !passed.silent.isEmpty {
            hub.logger.notice("board \(id): no list of peers from node(s) \(passed.silent) within \(Self.listWait)")
        }
        passed.then()
    }

    /// A membership message of another node. Applied at once, loading or not: the lists
    /// are what a loading room waits for.
    func receive(_ message: NodeMembership) {
        queue.async {
            guard let cluster = self.hub.cluster else { return }
            if message.ask && (message.to == nil || message.to == cluster.nodeName) { self.shareList(asking: false) }
            let changes = self.membership.apply(message)
            for peer in changes.joined { self.listJoin(of: peer, except: nil) }
            self.removeRemote(changes.left)
            // An ask carries this node's list too, so it never makes the others ask back.
            if let node = changes.askNode { self.shareList(asking: true, to: node) }
            if let node = changes.listedNode { self.stopAwaiting(node) }
        }
    }

    /// Another node stopped beating: its peers leave.
    func membersGone(withNode node: String) {
        queue.async {
            self.removeRemote(self.membership.nodeGone(node))
            self.stopAwaiting(node)
        }
    }

    /// A loading room has the node's list, or will never have it (the node is gone).
    private func stopAwaiting(_ node: String) {
        listGathering.settled(node)?()
    }

    private func removeRemote(_ peers: [ListedPeer]) {
        for peer in peers { listLeave(of: peer, except: nil) }
    }
}
