import CorkboardModel
import CorkboardWire

/// What the client does with each server message (on the loop).
extension ClientCore {
    func handle(_ message: ServerMessage) {
        switch message {
        case .welcome(let welcome):
            joined(welcome)
        case .committed(let event):
            committed(event)
        case .noop(let noop):
            settle(noop.opId, with: .noop(noop))
        case .rejected(let rejected):
            if let opId = rejected.opId {
                operationRejected(opId, code: rejected.code, message: rejected.message ?? rejected.code.rawValue)
            } else {
                // Only `drag.start` is rejected without an opId (with `ref`).
                events.emit(.dragRejected(rejected))
            }
        case .error(let error):
            // Before the welcome an error is the refusal of our hello; the close follows.
            if phase == .joined { events.emit(.serverError(error)) } else { refusal = error }
        case .peerJoined(let client, let name, let hue):
            peers.append(Peer(client: client, name: name, hue: hue))
            memberCount += 1
            events.emit(.peerJoined(client: client, name: name, hue: hue))
        case .peerLeft(let client):
            peers.removeAll { $0.client == client }
            editing[client] = nil
            memberCount -= 1
            events.emit(.peerLeft(client: client))
        case .peers(let change):
            peersChanged(change)
            events.emit(.peers(change))
        case .peersPage(let page):
            learn(page.peers)
            memberCount = page.count
            events.emit(.peersPage(page))
        case .drag(let update):
            if let index = peers.firstIndex(where: { $0.client == update.client }) {
                peers[index].drag = update.state
            }
            events.emit(.drag(update))
        case .dragOver(let client, let over):
            if let index = peers.firstIndex(where: { $0.client == client }) { peers[index].drag?.over = over }
            events.emit(.dragOver(client: client, over: over))
        case .dragCleared(let client, let reason):
            if let index = peers.firstIndex(where: { $0.client == client }) { peers[index].drag = nil }
            events.emit(.dragCleared(client: client, reason: reason))
        case .drags(let changes):
            // A big audience's batch: each change is handled (and reported) as the single
            // message it stands for, so callers see the same events whatever the board's size.
            for change in changes { handle(change.message) }
        case .editing(let client, let name, let item):
            editing[client] = item.map { PeerEditing(client: client, name: name, item: $0) }
            events.emit(.editing(client: client, name: name, item: item))
        case .pong:
            // Only ever the answer to an application ping, which this client does not send:
            // its WebSocket's ping frames (`pingInterval`, `pongTimeout`) notice a dead connection.
            break
        case .tokenAccepted(let expiresAt):
            scheduleTokenRefresh(expiresAt: expiresAt)
        case .tokenRefused(let refusal):
            events.emit(.serverError(refusal))
            retryTokenRefresh()
        }
    }

    /// A tick's joins and leaves (docs/protocol.md#peers): applied as set changes, ourselves
    /// and peers already known skipped; `count` is the truth when names were left out.
    private func peersChanged(_ change: PeersChange) {
        memberCount = change.count
        let gone = Set(change.left)
        peers.removeAll { gone.contains($0.client) }
        let joined = change.joined.map { Peer(client: $0.client, name: $0.name, hue: $0.hue) }
        learn(joined)
        if change.truncated { distrustNames(keeping: joined) }
    }

    /// After a truncated tick the names held may keep peers that left and miss some that
    /// came. A board small enough to name everyone (as a welcome would) is asked for its one
    /// page now, which names them again with their drags; a bigger one keeps its names unless
    /// there are more of them than peers, and then only the tick's. Only small boards ask, so
    /// that a join storm does not make every member of a big board ask for a page a tick.
    private func distrustNames(keeping joined: [Peer]) {
        let others = memberCount - (configuration.observes ? 0 : 1)
        if others <= MembershipLimits.listedPeers {
            peers = []
            send(.peersList(after: nil, limit: MembershipLimits.maximumPage))
        } else if peers.count > others {
            peers = []
            learn(joined)
        }
    }

    /// Adds the peers not known yet (nor ourselves), keeping what is known of the others.
    private func learn(_ newcomers: [Peer]) {
        var known = Set(peers.map(\.client))
        if let own = welcome?.client { known.insert(own) }
        for peer in newcomers where known.insert(peer.client).inserted { peers.append(peer) }
    }

    /// Applies the next event in seq order. An event at or below our seq repeats one we
    /// have (the answer to a resent opId); one beyond the next means we missed some, and
    /// one that does not fit means we are out of step: both start over from a snapshot.
    private func committed(_ event: CommittedEvent) {
        guard var replica, phase == .joined else { return }
        // Compared before one is added or taken: the server's seqs may be any Int, the largest too.
        if event.seq > replica.seq && event.seq - 1 == replica.seq {
            do {
                try replica.apply(event)
                setReplica(replica)
                events.emit(.committed(event))
            } catch {
                resynchronize()
            }
        } else if event.seq > replica.seq {
            resynchronize()
        }
        // The outcome is final whatever happened to the replica.
        settle(event.opId, with: .committed(event))
    }
}
