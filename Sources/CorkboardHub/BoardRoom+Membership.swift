import CorkboardModel
import CorkboardWire
import Dispatch

/// Who is on the board, at any size (docs/protocol.md#peers): a `welcome` lists at most
/// `MembershipLimits.listedPeers` peers and the count; a board of that many peers or fewer
/// hears each join and leave at once (`peer.joined`, `peer.left`), a bigger one once a tick
/// (`peers`); `peers.list` pages through the rest. Kept apart from drag presence, which has
/// its own pacing.
extension BoardRoom {
    /// A `welcome`'s peers, of every node: those dragging first, then the latest to join, at
    /// most `MembershipLimits.listedPeers`; the newcomer is not among them yet.
    func welcomePeers() -> [Peer] {
        let bound = MembershipLimits.listedPeers
        var dragging: [ListedPeer] = []
        for member in members.values where member.drag != nil && dragging.count < bound {
            if let listing = member.listing { dragging.append(listing) }
        }
        for client in remoteDrags.keys where dragging.count < bound {
            if let peer = remoteRoster.peers[client], dragState(of: peer) != nil { dragging.append(peer) }
        }
        dragging.sort { $0.order < $1.order }
        let latest = roster.latest(bound - dragging.count) { dragState(of: $0) != nil }
        // Within the byte bound too: a dragging peer's items may be many, and a page of
        // `peers.list` reaches whoever did not fit.
        return MembershipLimits.fitting((dragging + latest).map(peer), atLeastOne: false)
    }

    /// A peer as `welcome` and `peers.page` list it.
    private func peer(_ listed: ListedPeer) -> Peer {
        Peer(client: listed.client, name: listed.name, drag: dragState(of: listed))
    }

    /// The peer's drag, whichever node it is on (one of another node once its items are known).
    private func dragState(of peer: ListedPeer) -> DragState? {
        if peer.node == nil { return peer.member?.drag?.state }
        return remoteDrags[peer.client]?.update(of: peer.client).map { DragState(items: $0.items, over: $0.over) }
    }

    /// A peer joined (already in the roster): told to everyone but `key`, the member who joined.
    func announceJoin(of peer: ListedPeer, except key: MemberKey?) {
        // `{"client":…,"name":…,"type":"peer.joined"}`: about its bytes.
        if tellsAtOnce(costing: 44 + peer.client.utf8.count + peer.name.utf8.count) {
            sendToOthers(of: key, .peerJoined(client: peer.client, name: peer.name))
        } else {
            membershipTick.join(PeerName(client: peer.client, name: peer.name))
            scheduleMembershipTick()
        }
    }

    /// A peer left (already out of the roster).
    func announceLeave(of peer: ListedPeer, except key: MemberKey?) {
        if tellsAtOnce(costing: 34 + peer.client.utf8.count) {
            sendToOthers(of: key, .peerLeft(client: peer.client))
        } else {
            membershipTick.leave(peer.client)
            scheduleMembershipTick()
        }
    }

    /// A small board, with nothing waiting for a tick, hears a change as it happens, while
    /// its changes' bytes stay within the announcement rate: past it (join churn) they wait
    /// for the tick, which tells them all in one message.
    private func tellsAtOnce(costing bytes: Int) -> Bool {
        guard !membershipTick.isScheduled && roster.count <= MembershipLimits.listedPeers else { return false }
        return announcementBudget?.take(Double(bytes), now: hub.clock.now().uptimeNanoseconds) != false
    }

    private func scheduleMembershipTick() {
        guard !membershipTick.isScheduled else { return }
        membershipTick.isScheduled = true
        hub.clock.schedule(after: hub.configuration.membershipTick, on: queue) {
            // Encoded once, to every member: the newcomers of the tick too (a client ignores
            // itself and peers it already knows).
            guard let change = self.membershipTick.flush(count: self.roster.count) else { return }
            self.sendToOthers(of: nil, .peers(change))
        }
    }

    /// Answers `peers.list` (docs/protocol.md#peers-list): a page in join order, of at most
    /// `limit` peers and `MembershipLimits.listedPeerBytes` of them; `sent` hears the bytes
    /// of the answer (the asker's session counts them against its byte rate).
    func listPeers(after: Int?, limit: Int, for key: MemberKey, sent: @escaping @Sendable (Int) -> Void) {
        perform {
            guard self.members[key] != nil else { return }
            let page = self.roster.page(after: after, limit: limit)
            let peers = MembershipLimits.fitting(page.peers.map(self.peer), atLeastOne: true)
            // Cut short by bytes: the next page starts after the last peer listed.
            let next = peers.count < page.peers.count ? page.peers[peers.count - 1].order : page.next
            let text = WireText.encode(.peersPage(PeersPage(count: self.roster.count, peers: peers, next: next)))
            self.reply(text, to: key)
            sent(text.utf8.count)
        }
    }
}
