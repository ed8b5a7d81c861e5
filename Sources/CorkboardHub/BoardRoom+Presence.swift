import CorkboardModel
import CorkboardStore
import CorkboardWire
import Dispatch

/// Live drag state (docs/protocol.md#6-presence-drag-state): leases, placeholders, one
/// `drag` per drag with its items, coalesced `drag.over` broadcasts and exactly one
/// `drag.cleared` per accepted `drag.start`. All on the room's queue, like everything else
/// about the board, so a clear is ordered after the commit that caused it. Only members
/// send these, and a member exists only in a room that loaded.
extension BoardRoom {
    func dragStart(_ items: [ItemID], from key: MemberKey) {
        perform { self.inOrderOfPresence(key) { self.startDrag(items, from: key) } }
    }

    private func startDrag(_ items: [ItemID], from key: MemberKey) {
        guard let member = members[key] else { return }
        if let refusal = refusal(ofDragOf: items, by: member) {
            return member.link.send(.rejected(refusal))
        }
        // Held here already (by a member of this node, or of another one): no need to ask the
        // store. A refused drag.start ends the member's previous drag all the same.
        if let holder = engine.otherHolder(of: items, for: member.client, in: drags.leases) {
            clearDrag(of: key, .cancel)
            return member.link.send(.rejected(.dragStartBusy(holder: holder)))
        }
        leaseThenStart(HeldLeases(items: items), from: key) {
            guard let member = self.members[key] else { return }
            // A new drag replaces the member's previous one, which ends as cancelled (its
            // items were given back in the store when the new ones were leased).
            self.clearDrag(of: key, .cancel, releasingStoreLeases: false)
            if let holder = self.engine.otherHolder(of: items, for: member.client, in: self.drags.leases)
                ?? self.drags.lease(items, to: member.client)
            {
                return member.link.send(.rejected(.dragStartBusy(holder: holder)))
            }
            let drag = LiveDrag(items: Self.unique(items), generation: self.drags.nextGeneration(), now: self.hub.clock.now())
            self.members[key]?.drag = drag
            self.hub.metrics.drags.increment()
            // The only time this drag's items are sent: its placeholder moves go as `drag.over`.
            let start = ServerMessage.drag(DragUpdate(client: member.client, name: member.name, items: drag.state.items, over: nil))
            self.sendDragToOthers(of: key, start)
            self.publish(start)
            self.scheduleDragTimeout(of: key)
        }
    }

    /// A `drag.start` over the connection's rates: refused, and like a `busy` refusal it
    /// ends the member's previous drag (its items are let go, as the member meant to).
    func refuseDragStart(_ refusal: Rejected, from key: MemberKey) {
        perform {
            self.inOrderOfPresence(key) {
                guard let member = self.members[key] else { return }
                self.clearDrag(of: key, .cancel)
                member.link.send(.rejected(refusal))
            }
        }
    }

    func dragOver(collection: CollectionID?, index: Int, from key: MemberKey) {
        perform { self.inOrderOfPresence(key) { self.moveDragOver(collection: collection, index: index, from: key) } }
    }

    private func moveDragOver(collection: CollectionID?, index: Int, from key: MemberKey) {
        guard let member = members[key] else { return }
        guard var drag = member.drag else {
            return member.link.send(invalid: "drag.over without a drag in progress (send drag.start first)")
        }
        let target: DragTarget
        if let columns = drag.state.collections {
            guard collection == nil else {
                return member.link.send(invalid: "drag.over in a drag of columns takes no collection: its index is among the columns")
            }
            guard let over = columnTarget(index: index, leaving: columns, for: member) else { return }
            target = over
        } else {
            guard let collection else {
                return member.link.send(invalid: "drag.over needs a collection in a drag of items")
            }
            let dragged = Set(drag.state.items)
            guard let count = engine.itemCount(of: collection) else {
                return member.link.send(invalid: "drag.over: there is no collection \"\(collection)\"")
            }
            // The placeholder counts the list without the dragged items (0 … count).
            let remaining = count - dragged.filter { engine.collection(holding: $0) == collection }.count
            guard index >= 0, index <= remaining else {
                return member.link.send(invalid: "drag.over: index \(index) is outside 0…\(remaining)")
            }
            target = DragTarget(collection: collection, index: index, before: engine.itemID(at: index, in: collection, excluding: dragged))
        }
        drag.state.over = target
        drag.lastUpdate = hub.clock.now()
        drag.unsent = true
        members[key]?.drag = drag
        broadcastDrag(of: key)
    }

    func dragEnd(from key: MemberKey) {
        perform {
            self.inOrderOfPresence(key) {
                guard self.members[key] != nil else { return }
                self.clearDrag(of: key, .cancel)
            }
        }
    }

    /// The refusals a drag of items and a drag of columns share, if one applies: who may drag,
    /// the ids, their number and the lock.
    func dragStartRefusal(of ids: [String], idKind: String, plural: String, by member: Member) -> Rejected? {
        let refuse = Rejected.dragStart
        guard !member.observes else { return refuse(.forbidden, "an observer may not drag") }
        guard member.role.canEdit else { return refuse(.forbidden, "a viewer may not drag") }
        guard !ids.isEmpty, ids.allSatisfy(Limits.isValidID) else {
            return refuse(.invalid, "drag.start needs 1 or more \(idKind) ids of \(Limits.idRule)")
        }
        if let limit = hub.configuration.maxDragItems, ids.count > limit {
            return refuse(.invalid, "a drag holds at most \(limit) \(plural), not \(ids.count)")
        }
        guard !engine.isLocked else { return refuse(.locked, "the board is locked") }
        return nil
    }

    /// Why this member may not pick these items up, if it may not.
    private func refusal(ofDragOf items: [ItemID], by member: Member) -> Rejected? {
        let refuse = Rejected.dragStart
        if let refused = dragStartRefusal(of: items, idKind: "item", plural: "items", by: member) { return refused }
        guard items.allSatisfy(engine.contains) else { return refuse(.gone, "an item is not on the board") }
        if let wait = drags.coolDown(before: items, by: member.leaseHolders, now: hub.clock.now().uptimeNanoseconds) {
            let seconds = Int((Double(wait) / 1e9).rounded(.up))
            return refuse(.rateLimited, "your drag of these items expired; they are free for the others for \(seconds) more s")
        }
        return nil
    }

    /// Ends the member's drag, if any: leases released, `drag.cleared` to the others (which
    /// also makes any paced `drag.over` still waiting for it moot), and to the holder too
    /// when it `expired`: its `drag.over` no longer keeps it, and it must stop dragging.
    /// (A `timeout` is not told: the holder has been still, and may still drop with a move.)
    /// `releasingStoreLeases: false` when a new lease in the store replaced the old one.
    func clearDrag(of key: MemberKey, _ reason: DragClearReason, releasingStoreLeases: Bool = true) {
        guard let member = members[key], member.drag != nil else { return }
        members[key]?.drag = nil
        hub.metrics.drags.decrement()
        drags.release(heldBy: member.client)
        let cleared = ServerMessage.dragCleared(client: member.client, reason: reason)
        sendDragToOthers(of: reason == .expired ? nil : key, cleared)
        publish(cleared)
        if releasingStoreLeases { hub.cluster?.releaseLeases(board: id, holder: member.client) }
    }

    /// Sends the member's latest placeholder to the others now, or in its next pacing slot:
    /// a `drag.over`, a few dozen bytes, whatever the drag holds.
    func broadcastDrag(of key: MemberKey) {
        guard let member = members[key], var drag = member.drag, drag.unsent, !drag.flushScheduled,
            let over = drag.state.over
        else { return }
        let interval = hub.configuration.dragBroadcastInterval
        let now = hub.clock.now()
        // A batching board paces by its tick, which keeps only the latest placeholder.
        if now < drag.lastBroadcast + interval, !batchesDrags {
            drag.flushScheduled = true
            members[key]?.drag = drag
            let generation = drag.generation
            hub.clock.schedule(at: drag.lastBroadcast + interval, on: queue) {
                guard self.members[key]?.drag?.generation == generation else { return }
                self.members[key]?.drag?.flushScheduled = false
                self.broadcastDrag(of: key)
            }
            return
        }
        drag.lastBroadcast = now
        drag.unsent = false
        members[key]?.drag = drag
        let update = ServerMessage.dragOver(client: member.client, over: over)
        sendDragToOthers(of: key, update)
        publish(update, name: member.name)
    }

    /// Clears a drag nobody has updated for the timeout (30 s), and one held for longer than
    /// `maxDragDuration` however often it was updated (docs/protocol.md#6-presence-drag-state).
    func scheduleDragTimeout(of key: MemberKey) {
        guard let drag = members[key]?.drag else { return }
        let generation = drag.generation
        let configuration = hub.configuration
        let expiry = configuration.maxDragDuration.map { drag.started + $0 }
        hub.clock.schedule(at: min(drag.lastUpdate + configuration.dragTimeout, expiry ?? .distantFuture), on: queue) {
            guard let current = self.members[key]?.drag, current.generation == generation else { return }
            let now = self.hub.clock.now()
            if let expiry, now >= expiry {
                if let member = self.members[key] {
                    let until = (now + configuration.leaseCooldown).uptimeNanoseconds
                    if let columns = current.state.collections {
                        self.drags.expired(columns: columns, heldBy: member.leaseHolders, now: now.uptimeNanoseconds, until: until)
                    } else {
                        self.drags.expired(current.state.items, heldBy: member.leaseHolders, now: now.uptimeNanoseconds, until: until)
                    }
                }
                self.clearDrag(of: key, .expired)
            } else if now >= current.lastUpdate + configuration.dragTimeout {
                self.clearDrag(of: key, .timeout)
            } else {
                self.scheduleDragTimeout(of: key)
            }
        }
    }

    // MARK: Operations and drags

    /// Called before an operation from a member is resolved: a move of items it holds is
    /// the drop of its drag, which its outcome will clear.
    func noteDrop(_ request: OperationRequest, from key: MemberKey) {
        guard let drag = members[key]?.drag else { return }
        if let columns = drag.state.collections {
            switch request.operation {
            case .moveCollections(let moved, _) where !Set(moved).isDisjoint(with: columns):
                members[key]?.drag?.dropOpId = request.opId
            case .moveCollectionsByOffsets:
                // As for items: a column move by offsets sent mid-drag is its drop.
                members[key]?.drag?.dropOpId = request.opId
            default:
                break
            }
            return
        }
        switch request.operation {
        case .move(let sources, _) where !Set(sources).isDisjoint(with: drag.state.items):
            members[key]?.drag?.dropOpId = request.opId
        case .moveByOffsets:
            // Its sources are known only once resolved; a move sent mid-drag is its drop.
            members[key]?.drag?.dropOpId = request.opId
        default:
            break
        }
    }

    /// After a committed event went out: the holder's drop clears its drag (`drop`), and a
    /// delete or a column removed with its items clears every drag that held an item it took
    /// (`deleted`).
    func clearDrags(after event: CommittedEvent, from target: ReplyTarget) {
        if case .member(let key) = target, members[key]?.drag?.dropOpId == event.opId {
            clearDrag(of: key, .drop)
        }
        // The event is applied by now: a drag holding an item no longer on the board lost it.
        if event.op.takesItemsOffTheBoard {
            let hit = members.filter { $0.value.drag.map { !$0.state.items.allSatisfy(engine.contains) } ?? false }
            for (key, _) in hit.sorted(by: { $0.value.order < $1.value.order }) { clearDrag(of: key, .deleted) }
        }
        // A column removed (empty, or with its items) ends the drags of columns holding it.
        if event.op.removesAColumn { clearDragsOfRemovedColumns() }
        clearEditingMarks(after: event)
    }

    /// After the sender alone heard an outcome: a dropped-in-place move (noop) ends the drag
    /// as a drop, a refused one as cancelled.
    func clearDrag(after outcome: Outcome, to key: MemberKey) {
        guard let opId = members[key]?.drag?.dropOpId else { return }
        switch outcome {
        case .noop(let noop) where noop.opId == opId, .repeated(.noop(let noop)) where noop.opId == opId:
            clearDrag(of: key, .drop)
        case .repeated(.committed(let event)) where event.opId == opId:
            clearDrag(of: key, .drop)
        case .rejected(let rejection) where rejection.opId == opId, .repeated(.rejected(let rejection)) where rejection.opId == opId:
            clearDrag(of: key, .cancel)
        default:
            break
        }
    }

    /// The ids in order, each once.
    static func unique(_ items: [ItemID]) -> [ItemID] {
        var seen = Set<ItemID>()
        return items.filter { seen.insert($0).inserted }
    }
}
