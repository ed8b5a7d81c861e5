import CorkboardModel
import CorkboardStore
import CorkboardWire

/// Drags across nodes (docs/architecture.md, "Presence across nodes"). A member's drag is
/// decided by its own node: the items are leased in the store first (so two nodes never
/// grant the same item), then the drag goes on as on one node, and every `drag`, `drag.over`
/// and `drag.cleared` it broadcasts is also published for the other nodes, whose rooms show
/// it to their members and count its items as leased when they resolve moves. A drag of
/// columns goes the same way, its columns leased in the store apart from items. A node that
/// missed a drag's start (or whose start was too long for one notification) reads its
/// items, or columns, from the store's leases, once. Only the origin
/// ever clears its drags; a node that stops hearing another one's heartbeat clears that
/// node's drags itself, as `left`.
extension BoardRoom {
    // MARK: Origin side

    /// Asks the store for the items (or the columns, of a drag of columns) before a drag
    /// starts; presence messages the member sends meanwhile wait for the answer. Without a
    /// shared store the drag starts at once.
    func leaseThenStart(_ keys: HeldLeases, from key: MemberKey, start: @escaping @Sendable () -> Void) {
        guard let member = members[key] else { return }
        guard let cluster = hub.cluster else { return start() }
        member.presenceWaiting = []
        let client = member.client
        let answer: @Sendable (Result<ClientID?, StoreError>) -> Void = { result in
            self.queue.async {
                guard let member = self.members[key] else {
                    // Gone while asking: give back what it may have been granted.
                    return cluster.releaseLeases(board: self.id, holder: client)
                }
                switch result {
                case .success(nil):
                    start()
                case .success(let holder?):
                    // Refused (the store kept its previous lease): a refused drag.start still
                    // ends the member's previous drag, as on one node.
                    self.clearDrag(of: key, .cancel)
                    member.link.send(.rejected(.dragStartBusy(holder: holder)))
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
        if keys.columns.isEmpty {
            cluster.lease(board: id, items: Self.unique(keys.items), holder: client, answer)
        } else {
            cluster.lease(board: id, columns: Self.unique(keys.columns), holder: client, answer)
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

    /// Tells the other nodes what this room just told its members about one of its drags
    /// (`name`: the holder's, sent along with a placeholder move for a node that missed the
    /// drag's start).
    func publish(_ message: ServerMessage, name: String? = nil) {
        guard let cluster = hub.cluster else { return }
        let node = cluster.nodeName
        let seq = pipeline.durableSeq
        let presence: NodePresence
        switch message {
        case .drag(let update):
            presence = .drag(node: node, board: id, seq: seq, update)
        case .dragOver(let client, let over):
            presence = .over(node: node, board: id, seq: seq, client: client, name: name ?? client, over)
        case .dragCleared(let client, let reason):
            presence = .cleared(node: node, board: id, seq: seq, client: client, reason: reason)
        default:
            return
        }
        cluster.publish(presence: presence.encoded())
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
        let client = presence.client
        switch presence.kind {
        case .drag:
            // A new drag of that client. The origin cleared its previous one first; should that
            // clear have been lost, the previous one ends here.
            endRemoteDrag(of: client, .cancel)
            drags.begin(RemoteDrag(node: presence.node, name: presence.name ?? client, items: nil, over: presence.over), ofRemote: client)
            if let columns = presence.collections {
                show(columns: columns, ofRemoteDrag: client)
            } else if let items = presence.items {
                show(items, ofRemoteDrag: client)
            } else {
                lookUpLeases(ofRemoteDrag: client)
            }
        case .over:
            guard let over = presence.over else { return }
            guard drags.remoteDrag(of: client) != nil else {
                // Its start was missed (this room loaded later, or the notification was lost).
                drags.begin(RemoteDrag(node: presence.node, name: presence.name ?? client, items: nil, over: over), ofRemote: client)
                return lookUpLeases(ofRemoteDrag: client)
            }
            if drags.move(remote: client, to: over) { sendDragToOthers(of: nil, .dragOver(client: client, over: over)) }
        case .cleared:
            endRemoteDrag(of: client, presence.reason ?? .cancel)
        }
    }

    /// Reads from the store what a remote drag holds, items or columns, then shows it;
    /// nothing is shown when it holds nothing any more (its clear is then on its way, or it
    /// never started here).
    private func lookUpLeases(ofRemoteDrag client: ClientID) {
        let lookup = drags.startLookup(ofRemote: client)
        // Remote drags come from a shared store only; without one there is nothing to show.
        guard let cluster = hub.cluster else { return drags.forget(remote: client) }
        cluster.leases(board: id, holder: client) { result in
            self.queue.async {
                guard self.drags.awaits(lookup, ofRemote: client) else { return }
                guard case .success(let held) = result, !held.isEmpty else {
                    // Forgotten: a later placeholder move of it asks again.
                    return self.drags.forget(remote: client)
                }
                // The leases keep no order: the items, or columns, go in the board's.
                if held.columns.isEmpty {
                    let items = Set(held.items)
                    self.show(self.engine.board.allItemIDs.filter(items.contains), ofRemoteDrag: client)
                } else {
                    let columns = Set(held.columns)
                    self.show(columns: self.engine.collectionIDs.filter(columns.contains), ofRemoteDrag: client)
                }
            }
        }
    }

    /// The items of a remote drag are known: they count as held here, and the members see it.
    private func show(_ items: [ItemID], ofRemoteDrag client: ClientID) {
        if let update = drags.show(items, ofRemote: client) { sendDragToOthers(of: nil, .drag(update)) }
    }

    /// The columns of a remote drag of columns are known: the same, for columns.
    private func show(columns: [CollectionID], ofRemoteDrag client: ClientID) {
        if let update = drags.show(columns: columns, ofRemote: client) { sendDragToOthers(of: nil, .drag(update)) }
    }

    /// A member who just joined hears of the other nodes' drags in progress (`welcome.peers`
    /// lists only this node's members).
    func showRemoteDrags(to key: MemberKey) {
        for (client, drag) in drags.remote {
            guard let update = drag.update(of: client) else { continue }
            reply(WireText.encode(.drag(update)), to: key)
        }
    }

    /// Another node stopped beating: its members' drags end as if they had left.
    func nodeGone(_ node: String) {
        perform {
            for (client, drag) in self.drags.remote where drag.node == node { self.endRemoteDrag(of: client, .left) }
        }
    }

    private func endRemoteDrag(of client: ClientID, _ reason: DragClearReason) {
        guard let drag = drags.end(remote: client) else { return }
        // A drag this room never showed ends without a word.
        if drag.items != nil { sendDragToOthers(of: nil, .dragCleared(client: client, reason: reason)) }
    }
}
