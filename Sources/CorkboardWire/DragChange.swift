import CorkboardModel

/// One change of a `drags` batch (docs/protocol.md#6-presence-drag-state): exactly the
/// `drag`, `drag.over` or `drag.cleared` message it stands for, so a client handles each
/// the way it handles the single message.
public enum DragChange: Sendable, Hashable {
    case started(DragUpdate)
    case moved(client: ClientID, over: DragTarget)
    case cleared(client: ClientID, reason: DragClearReason)

    /// The change of a drag message; nil for any other message.
    public init?(_ message: ServerMessage) {
        switch message {
        case .drag(let update): self = .started(update)
        case .dragOver(let client, let over): self = .moved(client: client, over: over)
        case .dragCleared(let client, let reason): self = .cleared(client: client, reason: reason)
        default: return nil
        }
    }

    /// The single message this change stands for.
    public var message: ServerMessage {
        switch self {
        case .started(let update): .drag(update)
        case .moved(let client, let over): .dragOver(client: client, over: over)
        case .cleared(let client, let reason): .dragCleared(client: client, reason: reason)
        }
    }

    /// Whose drag it is.
    public var client: ClientID {
        switch self {
        case .started(let update): update.client
        case .moved(let client, _), .cleared(let client, _): client
        }
    }
}

extension ServerMessage {
    /// The drag messages this one stands for: a batch's changes in order, a single drag
    /// message itself, nothing for any other message. Clients dispatch on these.
    public var dragMessages: [ServerMessage] {
        switch self {
        case .drags(let changes): changes.map(\.message)
        case .drag, .dragOver, .dragCleared: [self]
        default: []
        }
    }
}
