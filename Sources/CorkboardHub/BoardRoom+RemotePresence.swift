import CorkboardModel
import CorkboardStore
import CorkboardWire

/// Drags across nodes (docs/architecture.md, "Presence across nodes"). A member's drag is
/// decided by its own node: the items are leased in the store first (so two nodes never
/// grant the same item), then the drag goes on as on one node, and every `drag` and
/// `drag.cleared` it broadcasts is also published for the other nodes, whose rooms show it
/// to their members and count its items as leased when they resolve moves. Only the origin
/// ever clears its drags; a node that stops hearing another one's heartbeat clears that
/// node's drags itself, as `left`.
extension BoardRoom {
    // MARK: Origin side

    /// Asks the store for the items before a drag starts; presence messages the member
    /// sends meanwhile wait for the answer. A store of one node answers at once.
    func leaseThenStart(_ items: [ItemID], from key: MemberKey, start: @escaping @Sendable () -> Void) {
        guard let member = members[key] else { return }
        guard hub.store.nodeName != nil else { return start() }
        member.presenceWaiting = []
        let client = member.client
        hub.store.lease(board: id, items: Self.unique(items), holder: client) { result in
            self.queue.async {
                guard let member = self.members[key] else {
                    // Gone while asking: give back what it may have been granted.
                    return self.hub.store.releaseLeases(board: self.id, holder: client)
                }
                switch result {
                case .success(nil):
                    start()
                case .success(let holder?):
                    // Refused (the store kept its previous lease): a refused drag.start still
                    // ends the member's previous drag, as on one node.
                    self.clearDrag(of: key, .cancel)
                    member.socket.send(.rejected(.dragStartBusy(holder: holder)))
                case .failure(let error):
                    // The database is unreachable: presence goes on locally.
                    self.hub.logger.warning("board \(self.id): leasing across nodes failed, leasing here only: \(error)")
                    start()
                }
                let waiting = member.presenceWaiting ?? []
                member.presenceWaiting = nil
                for work in waiting { work() }
            }
        }
    }

    /// Runs the member's presence message now, or after its pending lease is answered.
    func inOrderOfPresence(_ key: MemberKey, _ work: @escaping () -> Void) {
        if let member = members[key], member.presenceWaiting != nil {
            member.presenceWaiting?.append(work)
        } else {
            work()
        }
    }

    /// Tells the other nodes what this room just told its members about one of its drags.
    func publish(_ message: ServerMessage) {
        guard let node = hub.store.nodeName else { return }
        let presence: NodePresence
        switch message {
        case .drag(let update):
            presence = .drag(node: node, board: id, seq: pipeline.durableSeq, update)
        case .dragCleared(let client, let reason):
            presence = .cleared(node: node, board: id, seq: pipeline.durableSeq, client: client, reason: reason)
        default:
            return
        }
        hub.store.publish(presence: presence.encoded())
    }

    // MARK: Receiving side

    /// A drag of another node's member, applied once this room is as far as its origin was.
    func receive(_ presence: NodePresence) {
        perform {
            guard case .ready = self.readiness else { return }
            self.afterCatchingUp(to: presence.seq) { self.apply(presence) }
        }
    }

    private func apply(_ presence: NodePresence) {
        switch presence.kind {
        case .drag:
            guard let items = presence.items else { return }
            remoteDrags[presence.client] = presence.node
            // The origin holds the store's lease: here the items only count as held.
            leases.releaseAll(heldBy: presence.client)
            _ = leases.acquire(items, for: presence.client)
            sendToOthers(of: nil, .drag(DragUpdate(
                client: presence.client, name: presence.name ?? presence.client, items: items, over: presence.over)))
        case .cleared:
            endRemoteDrag(of: presence.client, presence.reason ?? .cancel)
        }
    }

    /// Another node stopped beating: its members' drags end as if they had left.
    func nodeGone(_ node: String) {
        perform {
            for (client, origin) in self.remoteDrags where origin == node { self.endRemoteDrag(of: client, .left) }
        }
    }

    private func endRemoteDrag(of client: ClientID, _ reason: DragClearReason) {
        guard remoteDrags.removeValue(forKey: client) != nil else { return }
        leases.releaseAll(heldBy: client)
        sendToOthers(of: nil, .dragCleared(client: client, reason: reason))
    }
}
