import CorkboardWire
import Dispatch

/// Drag presence to big audiences (docs/protocol.md#6-presence-drag-state): from
/// `dragBatchAudience` members on, a board's `drag`, `drag.over` and `drag.cleared` go out
/// once per tick as one `drags` message, encoded once, instead of one message per change
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

    /// Sends the batch: one shared text for the members who get every change, and one of
    /// their own for the few who do not (a dragger is not told of its own changes; a
    /// member who joined during the tick already saw the earlier ones in its `welcome`).
    func flushDragBatch() {
        guard !dragBatch.isEmpty else { return }
        let entries = dragBatch.take(now: hub.clock.now())
        guard let first = entries.first else { return }
        let skipped = Set(entries.compactMap(\.skipped))
        let earliest = entries.map(\.joinCounter).min() ?? first.joinCounter
        let shared = WireText.encode(.drags(entries.map(\.change)))
        var live: [any MemberLink] = []
        for (key, member) in members {
            let text: String
            if skipped.contains(key) || member.order > earliest {
                let own = entries.filter { $0.skipped != key && member.order <= $0.joinCounter }.map(\.change)
                guard !own.isEmpty else { continue }
                text = WireText.encode(.drags(own))
            } else if member.isLive {
                live.append(member.link)
                continue
            } else {
                text = shared
            }
            if member.isLive { member.link.send(text: text) } else { member.held.append(text) }
        }
        live.broadcast(shared)
    }
}
