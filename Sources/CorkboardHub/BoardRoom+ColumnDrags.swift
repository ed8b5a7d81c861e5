import CorkboardModel
import CorkboardStore
import CorkboardWire

/// Drags of columns (docs/protocol.md#6-presence-drag-state): a `drag.start` with
/// `collections` leases columns as one with `items` leases items, with the same refusals,
/// timeout, expiry and clears; its placeholder is an index among the board's columns. With a
/// shared store its columns are leased in the store first, as items are (apart from them: a
/// card may carry a column's id), and the drag is told to the other nodes.
extension BoardRoom {
    func dragStart(columns: [CollectionID], from key: MemberKey) {
        perform { self.inOrderOfPresence(key) { self.startColumnDrag(columns, from: key) } }
    }

    private func startColumnDrag(_ columns: [CollectionID], from key: MemberKey) {
        guard let member = members[key] else { return }
        if let refusal = refusal(ofColumnDragOf: columns, by: member) {
            return member.link.send(.rejected(refusal))
        }
        // Held here already (by a member of this node, or of another one): no need to ask the
        // store. A refused drag.start ends the member's previous drag all the same.
        if let holder = drags.otherHolder(ofColumns: columns, for: member.client) {
            clearDrag(of: key, .cancel)
            return member.link.send(.rejected(.dragStartBusy(holder: holder)))
        }
        leaseThenStart(HeldLeases(columns: columns), from: key) {
            guard let member = self.members[key] else { return }
            // A new drag replaces the member's previous one (cancelled), as for items; the store
            // gave back what it held when the new columns were leased.
            self.clearDrag(of: key, .cancel, releasingStoreLeases: false)
            guard columns.allSatisfy(self.engine.isColumn) else {
                // Removed while the store answered.
                self.hub.cluster?.releaseLeases(board: self.id, holder: member.client)
                return member.link.send(.rejected(.dragStart(.gone, "a column is not on the board")))
            }
            if let holder = self.drags.lease(columns: columns, to: member.client) {
                return member.link.send(.rejected(.dragStartBusy(holder: holder)))
            }
            self.beginColumnDrag(columns, of: key)
        }
    }

    private func beginColumnDrag(_ columns: [CollectionID], of key: MemberKey) {
        guard let member = members[key] else { return }
        let drag = LiveDrag(items: [], columns: Self.unique(columns), generation: drags.nextGeneration(), now: hub.clock.now())
        members[key]?.drag = drag
        hub.metrics.drags.increment()
        let start = ServerMessage.drag(
            DragUpdate(client: member.client, name: member.name, items: [], collections: drag.state.collections, over: nil))
        sendDragToOthers(of: key, start)
        publish(start)
        scheduleDragTimeout(of: key)
    }

    /// Why this member may not pick these columns up, if it may not: the refusals of a drag
    /// of items, a folder's list being no column (`invalid`, as in `collection.move`).
    private func refusal(ofColumnDragOf columns: [CollectionID], by member: Member) -> Rejected? {
        let refuse = Rejected.dragStart
        if let refused = dragStartRefusal(of: columns, idKind: "collection", plural: "columns", by: member) { return refused }
        if let folder = columns.first(where: { !engine.isColumn($0) && engine.itemCount(of: $0) != nil }) {
            return refuse(.invalid, "\(folder) is a folder, not a column: it is dragged as an item")
        }
        guard columns.allSatisfy(engine.isColumn) else { return refuse(.gone, "a column is not on the board") }
        if let wait = drags.coolDown(beforeColumns: columns, by: member.leaseHolders, now: hub.clock.now().uptimeNanoseconds) {
            let seconds = Int((Double(wait) / 1e9).rounded(.up))
            return refuse(.rateLimited, "your drag of these columns expired; they are free for the others for \(seconds) more s")
        }
        return nil
    }

    /// The placeholder of a drag of `columns` at `index` among the board's columns without
    /// them (0 … count), `before` the column there; nil, with the member told `invalid`,
    /// outside that range.
    func columnTarget(index: Int, leaving columns: [CollectionID], for member: Member) -> DragTarget? {
        let held = Set(columns)
        let remaining = engine.collectionIDs.filter { !held.contains($0) }
        guard index >= 0, index <= remaining.count else {
            member.link.send(invalid: "drag.over: index \(index) is outside 0…\(remaining.count)")
            return nil
        }
        return DragTarget(collection: nil, index: index, before: index < remaining.count ? remaining[index] : nil)
    }

    /// After a committed column removal: each drag holding a column no longer on the board
    /// is cleared `deleted`.
    func clearDragsOfRemovedColumns() {
        let hit = members.filter { $0.value.drag?.state.collections.map { !$0.allSatisfy(engine.isColumn) } ?? false }
        for (key, _) in hit.sorted(by: { $0.value.order < $1.value.order }) { clearDrag(of: key, .deleted) }
    }
}
