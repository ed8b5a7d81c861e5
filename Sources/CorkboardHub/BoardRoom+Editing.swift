import CorkboardModel
import CorkboardWire
import Dispatch

/// Editing marks (docs/protocol.md#editing-marks): who is editing which item's label, told to
/// the others so that their pages show "Ada is editing" on it. A mark is one item per member;
/// it ends when the member says so, marks another item, leaves, or the item is deleted, and
/// lapses like an idle drag (`dragTimeout`, 30 s) unless the member sends it again. Marks
/// live on this node only: they are not shared with other nodes.
extension BoardRoom {
    func setEditing(_ item: ItemID?, from key: MemberKey) {
        perform { self.markEditing(item, from: key) }
    }

    private func markEditing(_ item: ItemID?, from key: MemberKey) {
        guard let member = members[key] else { return }
        guard let item else { return clearEditing(of: key) }
        guard !member.observes, member.role.canEdit else {
            return member.link.send(.error(ErrorMessage(code: .forbidden, message: "a viewer may not edit")))
        }
        guard engine.contains(item) else {
            return member.link.send(invalid: "editing: there is no item \"\(item)\"")
        }
        let now = hub.clock.now()
        if member.editing?.item == item {
            // The same mark again: it is kept alive, and the others were told already.
            member.editing?.lastUpdate = now
            return
        }
        if member.editing == nil { editingMarkCount += 1 }
        member.editing = EditingMark(item: item, generation: drags.nextGeneration(), lastUpdate: now)
        sendToOthers(of: key, .editing(client: member.client, name: member.name, item: item))
        scheduleEditingLapse(of: key)
    }

    /// Ends the member's mark, if any, and tells the others (`item` null).
    func clearEditing(of key: MemberKey) {
        guard let member = members[key], member.editing != nil else { return }
        member.editing = nil
        editingMarkCount -= 1
        sendToOthers(of: key, .editing(client: member.client, name: member.name, item: nil))
    }

    /// After a committed delete or a column removed with its items: the marks on items no
    /// longer on the board end (a folder's delete takes what it holds).
    func clearEditingMarks(after event: CommittedEvent) {
        guard event.op.takesItemsOffTheBoard, editingMarkCount > 0 else { return }
        let hit = members.filter { $0.value.editing.map { !engine.contains($0.item) } ?? false }
        for (key, _) in hit.sorted(by: { $0.value.order < $1.value.order }) { clearEditing(of: key) }
    }

    /// A joining member hears the marks in progress right after its `welcome`.
    func showEditingMarks(to key: MemberKey) {
        // Without this count, every join looked at every member of the board.
        guard editingMarkCount > 0 else { return }
        let marked = members.filter { $0.key != key && $0.value.editing != nil }.sorted { $0.value.order < $1.value.order }
        for (_, member) in marked {
            guard let mark = member.editing else { continue }
            reply(WireText.encode(.editing(client: member.client, name: member.name, item: mark.item)), to: key)
        }
    }

    /// Clears a mark its holder has not sent again within the timeout.
    private func scheduleEditingLapse(of key: MemberKey) {
        guard let mark = members[key]?.editing else { return }
        let generation = mark.generation
        hub.clock.schedule(at: mark.lastUpdate + hub.configuration.dragTimeout, on: queue) {
            guard let current = self.members[key]?.editing, current.generation == generation else { return }
            if self.hub.clock.now() >= current.lastUpdate + self.hub.configuration.dragTimeout {
                self.clearEditing(of: key)
            } else {
                self.scheduleEditingLapse(of: key)
            }
        }
    }
}
