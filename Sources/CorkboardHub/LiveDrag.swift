import CorkboardModel
import CorkboardWire
import Dispatch

/// One member's drag in progress (docs/protocol.md#6-presence-drag-state): presence only,
/// never persisted or sequenced.
struct LiveDrag {
    var state: DragState
    /// Tells this drag from the member's next one, so a timer or an answer that belongs to
    /// an ended drag does nothing.
    let generation: Int
    /// When it started: it expires `maxDragDuration` later, whatever the holder sends.
    let started: DispatchTime
    /// When the holder last said something about it (start or over): the 30 s timeout.
    var lastUpdate: DispatchTime
    /// When its `drag` or a `drag.over` was last broadcast, and whether a newer placeholder
    /// waits for the 50 ms pacing slot (at most 20 per second, the latest always delivered).
    var lastBroadcast: DispatchTime
    var flushScheduled = false
    var unsent = false
    /// The opId of the holder's move that drops it: its outcome clears the drag.
    var dropOpId: OperationID?

    /// A drag that starts `now` (the hub's clock): of items, or of `columns` (then `items` is empty).
    init(items: [ItemID], columns: [CollectionID]? = nil, generation: Int, now: DispatchTime) {
        state = DragState(items: items, collections: columns, over: nil)
        self.generation = generation
        started = now
        lastUpdate = started
        // Its `drag` goes out at once and takes the first pacing slot.
        lastBroadcast = started
    }
}
