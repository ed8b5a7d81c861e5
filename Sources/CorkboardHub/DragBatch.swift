import CorkboardModel
import CorkboardWire
import Dispatch

/// The drag changes of a board waiting for its next tick (docs/protocol.md#6-presence-drag-state),
/// in the order they happened, with each drag's latest placeholder folded into its pending
/// change: sent as one `drags` message, encoded once for all who get every change.
///
/// A class, held by its `BoardRoom` with `let` and, like all of the room's state, used only
/// on the room's queue (or by one test): its state is private, changed only through its methods.
final class DragBatch {
    struct Entry {
        var change: DragChange
        /// The member who caused it and is not told (nil: everyone is, an `expired` clear).
        let skipped: MemberKey?
        /// The room's join counter when it was queued: members who joined later already saw
        /// its outcome in their `welcome`.
        let joinCounter: Int
    }

    private(set) var entries: [Entry] = []
    /// Where each client's last pending change is, to fold a placeholder move into it.
    private var lastOfClient: [ClientID: Int] = [:]
    /// Whether a tick is due, and when the last batch went out (ticks are at least one interval apart).
    private var tickScheduled = false
    private var lastFlush: DispatchTime

    /// An empty batch of a room opened at `now` (the hub's clock): its first tick is at
    /// least one interval later, as every tick after a flush.
    init(now: DispatchTime) { lastFlush = now }

    var isEmpty: Bool { entries.isEmpty }

    /// Queues a change at `now` and says when the room must run the next tick: one `interval`
    /// after the last flush, or now (after what is queued) on a board that was quiet, so a lone
    /// change is not held back; nil when a tick is due already.
    func add(
        _ change: DragChange, skipping key: MemberKey?, joinCounter: Int, now: DispatchTime, interval: DispatchTimeInterval
    ) -> DispatchTime? {
        queue(change, skipping: key, joinCounter: joinCounter)
        guard !tickScheduled else { return nil }
        tickScheduled = true
        return max(now, lastFlush + interval)
    }

    /// The tick came: the next change schedules another.
    func tickCame() {
        tickScheduled = false
    }

    /// A placeholder move replaces the pending move of the same drag, or becomes the
    /// placeholder of its pending start; starts and clears are always kept, so every drag a
    /// watcher was told of ends in its clear.
    private func queue(_ change: DragChange, skipping key: MemberKey?, joinCounter: Int) {
        if case .moved(let client, let over) = change, let index = lastOfClient[client] {
            switch entries[index].change {
            case .moved:
                entries[index].change = .moved(client: client, over: over)
                return
            case .started(var update):
                update.over = over
                entries[index].change = .started(update)
                return
            case .cleared:
                break
            }
        }
        lastOfClient[change.client] = entries.count
        entries.append(Entry(change: change, skipped: key, joinCounter: joinCounter))
    }

    /// Takes the pending changes at `now` (a flush), leaving the batch empty.
    func take(now: DispatchTime) -> [Entry] {
        lastFlush = now
        defer {
            entries = []
            lastOfClient = [:]
        }
        return entries
    }
}
