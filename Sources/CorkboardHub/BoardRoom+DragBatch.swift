import CorkboardWire
import Dispatch

/// Drag presence to big audiences (docs/protocol.md#6-presence-drag-state): from
/// `dragBatchAudience` members on, a board's `drag`, `drag.over` and `drag.cleared` go out
/// once per tick as one `drags` message (or `drags.compact`), encoded once per form, instead of one message per change
/// to every member (100 draggers before 1,000 watchers made 2,000 broadcasts a second of
/// 1,000 sends each). Smaller boards keep the single messages. On the room's queue.
extension BoardRoom {
    /// Whether drag changes go into the tick's batch: a batch already waiting takes every
    /// change after it too, so nothing overtakes what it holds.
    var batchesDrags: Bool {
        guard dragBatch.isEmpty else { return true }
        guard let audience = hub.configuration.dragBatchAudience else { return false }
        return members.count >= audience
    }

    /// A drag change to every member but `key` (nil: to all), now or at the next tick.
    func sendDragToOthers(of key: MemberKey?, _ message: ServerMessage) {
        guard batchesDrags, let change = DragChange(message) else { return sendToOthers(of: key, message) }
        let clock = hub.clock
        let tick = dragBatch.add(
            change, skipping: key, joinCounter: membership.joinCounter, now: clock.now(), interval: hub.configuration.dragBroadcastInterval)
        guard let tick else { return }
        clock.schedule(at: tick, on: queue) {
            self.dragBatch.tickCame()
            self.flushDragBatch()
        }
    }

    /// Sends the batch: one shared text per form (docs/protocol.md#compact-drags) for the
    /// members who get every change, and one of their own for the few who do not (a dragger
    /// is not told of its own changes; a member who joined during the tick already saw the
    /// earlier ones in its `welcome`). A form nobody asked for is not encoded.
    ///
    /// The shared texts go first: they are what the watchers wait for, and with many draggers
    /// the texts of their own (one encoding each, a dragger per change of the tick) took the
    /// room's queue for milliseconds before the first watcher was written to.
    func flushDragBatch() {
        guard !dragBatch.isEmpty else { return }
        let entries = dragBatch.take(now: hub.clock.now())
        guard let first = entries.first else { return }
        let skipped = Set(entries.compactMap(\.skipped))
        let earliest = entries.map(\.joinCounter).min() ?? first.joinCounter
        let changes = entries.map(\.change)
        var shared = SharedDragTexts()
        var live: [PresenceForm: [any MemberLink]] = [:]
        var ownBatches: [MemberKey] = []
        for (key, member) in members {
            if skipped.contains(key) || member.order > earliest {
                ownBatches.append(key)
            } else if member.isLive {
                live[member.presence, default: []].append(member.link)
            } else {
                member.held.append(shared.text(of: changes, in: member.presence))
            }
        }
        for (form, links) in live { links.broadcast(shared.text(of: changes, in: form)) }
        for key in ownBatches {
            guard let member = members[key] else { continue }
            let own = entries.filter { $0.skipped != key && member.order <= $0.joinCounter }.map(\.change)
            guard !own.isEmpty else { continue }
            let text = Self.dragsText(own, in: member.presence)
            if member.isLive { member.link.send(text: text) } else { member.held.append(text) }
        }
    }

    /// Drag changes as one message in the form a member asked for.
    static func dragsText(_ changes: [DragChange], in form: PresenceForm) -> String {
        switch form {
        case .full: WireText.encode(.drags(changes))
        case .compact: CompactDrags.text(changes)
        }
    }
}

/// A tick's batch as shared by the members who get all of it: each form encoded once, when
/// its first member needs it.
private struct SharedDragTexts {
    private var texts: [PresenceForm: String] = [:]

    mutating func text(of changes: [DragChange], in form: PresenceForm) -> String {
        if let text = texts[form] { return text }
        let text = BoardRoom.dragsText(changes, in: form)
        texts[form] = text
        return text
    }
}
