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
    func welcomePeers() -> EncodedPeerList {
        // Nobody drags, here or on another node (a drag shown holds its items' leases here; one
        // of another node is in `drags.remote` from its start): the list is the latest to join
        // alone, the same for every join until somebody joins or leaves, so it is kept; and
        // nobody's drag is looked for (a look at every member of the board, for each join).
        if drags.leases.holders.isEmpty && drags.remote.isEmpty {
            return welcomePeerLists.peers(version: membership.roster.version) {
                EncodedPeerList(fitting: membership.roster.latest(MembershipLimits.listedPeers) { _ in false }.map(peer))
            }
        }
        return EncodedPeerList(fitting: listedWelcomePeers())
    }

    /// The peers `welcomePeers` lists while somebody drags, before the byte bound.
    private func listedWelcomePeers() -> [Peer] {
        let bound = MembershipLimits.listedPeers
        var dragging: [ListedPeer] = []
        for member in members.values where member.drag != nil && dragging.count < bound {
            if let listing = member.listing { dragging.append(listing) }
        }
        for client in drags.remote.keys where dragging.count < bound {
            if let peer = membership.remotePeer(client), dragState(of: peer) != nil { dragging.append(peer) }
        }
        dragging.sort { $0.order < $1.order }
        let latest = membership.roster.latest(bound - dragging.count) { dragState(of: $0) != nil }
        // Within the byte bound too (`EncodedPeerList(fitting:)`): a dragging peer's items may
        // be many, and a page of `peers.list` reaches whoever did not fit.
        return (dragging + latest).map(peer)
    }

    /// A peer as `welcome` and `peers.page` list it.
    private func peer(_ listed: ListedPeer) -> Peer {
        Peer(client: listed.client, name: listed.name, hue: listed.hue, drag: dragState(of: listed))
    }

    /// The peer's drag, whichever node it is on (one of another node once its items are known).
    private func dragState(of peer: ListedPeer) -> DragState? {
        if peer.node == nil { return peer.member?.drag?.state }
        return drags.remoteDrag(of: peer.client)?.update(of: peer.client).map(\.state)
    }

    /// A peer joined (of this node, or of another): listed, and told to everyone but `key`
    /// (the member who joined) now or with the tick.
    func listJoin(of peer: ListedPeer, except key: MemberKey?) {
        switch membership.join(peer, now: hub.clock.now().uptimeNanoseconds) {
        case .atOnce: sendToOthers(of: key, .peerJoined(client: peer.client, name: peer.name, hue: peer.hue))
        case .atTick(let first): if first { scheduleMembershipTick() }
        }
    }

    /// A peer left: unlisted, and told to everyone but `key` now or with the tick.
    func listLeave(of peer: ListedPeer, except key: MemberKey?) {
        switch membership.leave(peer, now: hub.clock.now().uptimeNanoseconds) {
        case .atOnce: sendToOthers(of: key, .peerLeft(client: peer.client))
        case .atTick(let first): if first { scheduleMembershipTick() }
        }
    }

    private func scheduleMembershipTick() {
        hub.clock.schedule(after: hub.configuration.membershipTick, on: queue) {
            // Encoded once, to every member: the newcomers of the tick too (a client ignores
            // itself and peers it already knows).
            guard let change = self.membership.tickFired() else { return }
            self.sendToOthers(of: nil, .peers(change))
        }
    }

    /// Answers `peers.list` (docs/protocol.md#peers-list): a page in join order, of at most
    /// `limit` peers and `MembershipLimits.listedPeerBytes` of them; `sent` hears the bytes
    /// of the answer (the asker's session counts them against its byte rate).
    func listPeers(after: Int?, limit: Int, for key: MemberKey, sent: @escaping @Sendable (Int) -> Void) {
        perform {
            guard self.members[key] != nil else { return }
            let page = self.membership.roster.page(after: after, limit: limit)
            let peers = MembershipLimits.fitting(page.peers.map(self.peer), atLeastOne: true)
            // Cut short by bytes: the next page starts after the last peer listed.
            let next = peers.count < page.peers.count ? page.peers[peers.count - 1].order : page.next
            let text = WireText.encode(.peersPage(PeersPage(count: self.membership.roster.count, peers: peers, next: next)))
            self.reply(text, to: key)
            sent(text.utf8.count)
        }
    }
}
