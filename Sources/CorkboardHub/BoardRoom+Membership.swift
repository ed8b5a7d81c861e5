import CorkboardModel
import CorkboardWire
import Dispatch

/// Who is on the board, at any size (docs/protocol.md#peers): a `welcome` lists at most
/// `MembershipLimits.listedPeers` peers and the count; a board of that many peers or fewer
/// hears each join and leave at once (`peer.joined`, `peer.left`), a bigger one once a tick
/// (`peers`); `peers.list` pages through the rest. Kept apart from drag presence, which has
/// its own pacing.
extension BoardRoom {
    /// A `welcome`'s peers: those dragging first, then the latest to join, at most
    /// `MembershipLimits.listedPeers`; the newcomer is not among them yet.
    func welcomePeers() -> [Peer] {
        let bound = MembershipLimits.listedPeers
        var dragging: [Member] = []
        for member in members.values where member.drag != nil && !member.observes && dragging.count < bound {
            dragging.append(member)
        }
        dragging.sort { $0.order < $1.order }
        let latest = roster.latest(bound - dragging.count) { $0.drag != nil }
        return (dragging + latest).map { Peer(client: $0.client, name: $0.name, drag: $0.drag?.state) }
    }

    /// A peer joined (already in the roster).
    func announceJoin(of key: MemberKey, _ member: Member) {
        if tellsAtOnce {
            sendToOthers(of: key, .peerJoined(client: member.client, name: member.name))
        } else {
            membershipTick.join(PeerName(client: member.client, name: member.name))
            scheduleMembershipTick()
        }
    }

    /// A peer left (already out of the roster).
    func announceLeave(of key: MemberKey, _ member: Member) {
        if tellsAtOnce {
            sendToOthers(of: key, .peerLeft(client: member.client))
        } else {
            membershipTick.leave(member.client)
            scheduleMembershipTick()
        }
    }

    /// A small board, with nothing waiting for a tick, hears a change as it happens.
    private var tellsAtOnce: Bool {
        !membershipTick.isScheduled && roster.count <= MembershipLimits.listedPeers
    }

    private func scheduleMembershipTick() {
        guard !membershipTick.isScheduled else { return }
        membershipTick.isScheduled = true
        queue.asyncAfter(deadline: .now() + hub.configuration.membershipTick) {
            // Encoded once, to every member: the newcomers of the tick too (a client ignores
            // itself and peers it already knows).
            guard let change = self.membershipTick.flush(count: self.roster.count) else { return }
            self.sendToOthers(of: nil, .peers(change))
        }
    }

    /// Answers `peers.list` (docs/protocol.md#peers-list): a page in join order.
    func listPeers(after: Int?, limit: Int, for key: MemberKey) {
        perform {
            guard self.members[key] != nil else { return }
            let page = self.roster.page(after: after, limit: limit)
            let peers = page.peers.map { Peer(client: $0.client, name: $0.name, drag: $0.drag?.state) }
            self.reply(WireText.encode(.peersPage(PeersPage(count: self.roster.count, peers: peers, next: page.next))), to: key)
        }
    }
}
