/// What a member holds only while it drags, edits a label or waits for a lease across nodes:
/// made at the first of these, dropped when none is left, so an idle member holds one empty
/// reference instead of a drag's, a mark's and a queue's room (about 160 bytes).
/// Confined to the room's queue like its `Member`.
final class MemberActivity {
    var drag: LiveDrag?
    var editing: EditingMark?
    var waiting: [() -> Void]?

    var isEmpty: Bool { drag == nil && editing == nil && waiting == nil }
}

extension Member {
    /// The live drag, if any (docs/protocol.md#6-presence-drag-state), and how its broadcasts
    /// are paced.
    var drag: LiveDrag? {
        get { activity?.drag }
        set { updateActivity { $0.drag = newValue } }
    }

    /// The item whose label it is editing, if any (docs/protocol.md#editing-marks).
    var editing: EditingMark? {
        get { activity?.editing }
        set { updateActivity { $0.editing = newValue } }
    }

    /// While its items are being leased across nodes: its presence messages since, in order.
    var presenceWaiting: [() -> Void]? {
        get { activity?.waiting }
        set { updateActivity { $0.waiting = newValue } }
    }

    private func updateActivity(_ change: (MemberActivity) -> Void) {
        let box = activity ?? MemberActivity()
        change(box)
        activity = box.isEmpty ? nil : box
    }
}
