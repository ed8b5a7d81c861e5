import CorkboardModel
import CorkboardWire

/// Where a client's connection stands. Every change is also a `BoardEvent.connection`.
public enum ConnectionState: Sendable, Hashable {
    /// Created, `connect()` not called yet.
    case idle
    /// Opening a WebSocket and saying `hello`; `attempt` counts failed attempts before this one.
    case connecting(attempt: Int)
    /// Welcomed on the board: the replica is live.
    case joined(client: ClientID, role: Role, resumed: Bool)
    /// The connection dropped (`code` 1006 without a close frame); a reconnect follows.
    case disconnected(code: UInt16, reason: String)
    /// Waiting `delay` seconds before the next attempt.
    case waiting(delay: Double)
    /// Finished for good: nil after `close()`, otherwise why.
    case closed(BoardClientError?)
}

/// What a watcher sees: the connection's states and the board's traffic, in the order the
/// client handled it. Answers to this client's own operations come back as their
/// ``OperationResult``, not here (a `committed` does come here: it changed the replica).
public enum BoardEvent: Sendable, Hashable {
    case connection(ConnectionState)
    /// A `welcome`: a new snapshot (`resumed` false: the replica was replaced) or a resume.
    case welcome(Welcome)
    /// An event applied to the replica. Each seq comes once, in order, across reconnects.
    case committed(CommittedEvent)
    /// `hue`: the colour it chose, nil when none (docs/protocol.md#colours).
    case peerJoined(client: ClientID, name: String, hue: Hue? = nil)
    case peerLeft(client: ClientID)
    /// A tick's joins and leaves on a board past the listed bound (docs/protocol.md#peers).
    case peers(PeersChange)
    /// The answer to `listPeers(after:limit:)`.
    case peersPage(PeersPage)
    /// A drag's start (or a drag in progress first heard of): its items, once per drag.
    case drag(DragUpdate)
    /// The placeholder of a drag announced by `drag` moved.
    case dragOver(client: ClientID, over: DragTarget)
    /// A drag ended. With our own client id: the server ended our drag (`timeout`, `expired`).
    case dragCleared(client: ClientID, reason: DragClearReason)
    /// Someone's editing mark (docs/protocol.md#editing-marks): the item whose label they
    /// edit, or nil when they stopped.
    case editing(client: ClientID, name: String, item: ItemID?)
    /// Our `drag.start` was refused (`busy` with its `holder`, `locked`, `gone`, …).
    case dragRejected(Rejected)
    /// An `error` from the server after joining (e.g. a `drag.over` without a drag).
    case serverError(ErrorMessage)

    /// The server message behind this event (nil for connection states): what
    /// `corkboard bot watch --json` prints.
    public var serverMessage: ServerMessage? {
        switch self {
        case .connection: nil
        case .welcome(let welcome): .welcome(welcome)
        case .committed(let event): .committed(event)
        case .peerJoined(let client, let name, let hue): .peerJoined(client: client, name: name, hue: hue)
        case .peerLeft(let client): .peerLeft(client: client)
        case .peers(let change): .peers(change)
        case .peersPage(let page): .peersPage(page)
        case .drag(let update): .drag(update)
        case .dragOver(let client, let over): .dragOver(client: client, over: over)
        case .dragCleared(let client, let reason): .dragCleared(client: client, reason: reason)
        case .editing(let client, let name, let item): .editing(client: client, name: name, item: item)
        case .dragRejected(let rejected): .rejected(rejected)
        case .serverError(let error): .error(error)
        }
    }
}
