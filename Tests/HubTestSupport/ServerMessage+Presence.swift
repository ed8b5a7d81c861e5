import CorkboardModel
import CorkboardWire

/// The presence messages' payloads, for tests that look for them among what a client heard.
extension ServerMessage {
    /// The drag a `drag` message announces.
    public var dragUpdate: DragUpdate? {
        if case .drag(let update) = self { update } else { nil }
    }

    /// A `drag.over`: whose placeholder, and where.
    public var dragOverTarget: (client: ClientID, over: DragTarget)? {
        if case .dragOver(let client, let over) = self { (client, over) } else { nil }
    }

    /// A batch of drag changes (`drags`, on a board of many members).
    public var dragChanges: [DragChange]? {
        if case .drags(let changes) = self { changes } else { nil }
    }

    /// A `drag.cleared`: whose drag, and why.
    public var dragClear: (client: ClientID, reason: DragClearReason)? {
        if case .dragCleared(let client, let reason) = self { (client, reason) } else { nil }
    }
}
