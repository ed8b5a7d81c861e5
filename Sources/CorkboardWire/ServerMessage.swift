import CorkboardModel

/// Every message the server sends (docs/protocol.md), tagged by its `type`.
public enum ServerMessage: Sendable, Hashable {
    case welcome(Welcome)
    case peerJoined(client: ClientID, name: String, hue: Hue? = nil)
    case peerLeft(client: ClientID)
    /// A tick's membership changes on a board past `MembershipLimits.listedPeers` peers.
    case peers(PeersChange)
    /// The answer to `peers.list`.
    case peersPage(PeersPage)
    /// A drag's start (or a drag in progress first heard of): its items, sent once per drag.
    case drag(DragUpdate)
    /// A paced placeholder move of a drag already announced with `drag`.
    case dragOver(client: ClientID, over: DragTarget)
    case dragCleared(client: ClientID, reason: DragClearReason)
    /// The drag changes of a board's tick, in order, sent to big audiences instead of the
    /// single `drag`, `drag.over` and `drag.cleared` (docs/protocol.md#6-presence-drag-state).
    case drags([DragChange])
    /// Someone's editing mark (docs/protocol.md#editing-marks): the item whose label they edit,
    /// or nil when they stopped (or left, or the mark lapsed).
    case editing(client: ClientID, name: String, item: ItemID?)
    case committed(CommittedEvent)
    /// `{"type":"committed","opId":…,"seq":N,"noop":true}`
    case noop(Noop)
    case rejected(Rejected)
    case error(ErrorMessage)
    /// `{"type":"pong","id":…}`: the answer to the client's `ping` with that id.
    case pong(id: String)
    /// `{"type":"token.accepted","tokenExpiresAt":…}`: the connection holds the token the
    /// client sent in `token` now; `tokenExpiresAt` (milliseconds since 1970) absent when it
    /// does not expire.
    case tokenAccepted(expiresAt: Int?)
    /// `{"type":"token.refused","code","message"}`: the token sent in `token` was not taken;
    /// the connection keeps the one it had.
    case tokenRefused(ErrorMessage)

    public var typeName: String {
        switch self {
        case .welcome: "welcome"
        case .peerJoined: "peer.joined"
        case .peerLeft: "peer.left"
        case .peers: "peers"
        case .peersPage: "peers.page"
        case .drag: "drag"
        case .dragOver: "drag.over"
        case .dragCleared: "drag.cleared"
        case .drags: "drags"
        case .editing: "editing"
        case .committed, .noop: "committed"
        case .rejected: "rejected"
        case .error: "error"
        case .pong: "pong"
        case .tokenAccepted: "token.accepted"
        case .tokenRefused: "token.refused"
        }
    }
}

extension ServerMessage: Codable {
    private enum CodingKeys: String, CodingKey {
        case type, client, name, hue, over, reason, opId, seq, noop, id, changes, tokenExpiresAt, item
    }

    /// The payload's own fields are written at the top level, beside `type`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(typeName, forKey: .type)
        switch self {
        case .welcome(let welcome): try welcome.encode(to: encoder)
        case .peerJoined(let client, let name, let hue):
            try container.encode(client, forKey: .client)
            try container.encode(name, forKey: .name)
            try container.encodeIfPresent(hue, forKey: .hue)
        case .peerLeft(let client):
            try container.encode(client, forKey: .client)
        case .peers(let change): try change.encode(to: encoder)
        case .peersPage(let page): try page.encode(to: encoder)
        case .drag(let update): try update.encode(to: encoder)
        case .dragOver(let client, let over):
            try container.encode(client, forKey: .client)
            try container.encode(over, forKey: .over)
        case .dragCleared(let client, let reason):
            try container.encode(client, forKey: .client)
            try container.encode(reason, forKey: .reason)
        case .drags(let changes):
            try container.encode(changes.map(\.message), forKey: .changes)
        case .editing(let client, let name, let item):
            try container.encode(client, forKey: .client)
            try container.encode(name, forKey: .name)
            try container.encode(item, forKey: .item)
        case .committed(let event): try event.encode(to: encoder)
        case .noop(let noop):
            try container.encode(noop.opId, forKey: .opId)
            try container.encode(noop.seq, forKey: .seq)
            try container.encode(true, forKey: .noop)
        case .rejected(let rejected): try rejected.encode(to: encoder)
        case .error(let error): try error.encode(to: encoder)
        case .pong(let id): try container.encode(id, forKey: .id)
        case .tokenAccepted(let expiresAt): try container.encodeIfPresent(expiresAt, forKey: .tokenExpiresAt)
        case .tokenRefused(let refusal): try refusal.encode(to: encoder)
        }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let type = try container.decode(String.self, forKey: .type)
        switch type {
        case "welcome": self = .welcome(try Welcome(from: decoder))
        case "peer.joined":
            self = .peerJoined(
                client: try container.decode(ClientID.self, forKey: .client),
                name: try container.decode(String.self, forKey: .name),
                hue: try container.decodeIfPresent(Hue.self, forKey: .hue))
        case "peer.left": self = .peerLeft(client: try container.decode(ClientID.self, forKey: .client))
        case "peers": self = .peers(try PeersChange(from: decoder))
        case "peers.page": self = .peersPage(try PeersPage(from: decoder))
        case "drag": self = .drag(try DragUpdate(from: decoder))
        case "drag.over":
            self = .dragOver(
                client: try container.decode(ClientID.self, forKey: .client),
                over: try container.decode(DragTarget.self, forKey: .over))
        case "drag.cleared":
            self = .dragCleared(
                client: try container.decode(ClientID.self, forKey: .client),
                reason: try container.decode(DragClearReason.self, forKey: .reason))
        case "drags":
            let messages = try container.decode([ServerMessage].self, forKey: .changes)
            self = .drags(
                try messages.map { message in
                    guard let change = DragChange(message) else {
                        throw DecodingError.dataCorruptedError(
                            forKey: .changes, in: container, debugDescription: "drags holds only drag, drag.over and drag.cleared")
                    }
                    return change
                })
        case "editing":
            self = .editing(
                client: try container.decode(ClientID.self, forKey: .client),
                name: try container.decode(String.self, forKey: .name),
                item: try container.decodeIfPresent(ItemID.self, forKey: .item))
        case CompactDrags.typeName:
            // The compact form decodes into the long form's changes (docs/protocol.md#compact-drags).
            let values = try container.decode([JSONValue].self, forKey: .changes)
            self = .drags(
                try values.map { value in
                    do {
                        return try CompactDrags.change(value)
                    } catch {
                        throw DecodingError.dataCorruptedError(forKey: .changes, in: container, debugDescription: String(describing: error))
                    }
                })
        case "committed" where try container.decodeIfPresent(Bool.self, forKey: .noop) == true:
            self = .noop(
                Noop(
                    opId: try container.decode(OperationID.self, forKey: .opId), seq: try container.decode(Int.self, forKey: .seq)))
        case "committed": self = .committed(try CommittedEvent(from: decoder))
        case "rejected": self = .rejected(try Rejected(from: decoder))
        case "error": self = .error(try ErrorMessage(from: decoder))
        case "pong": self = .pong(id: try container.decode(String.self, forKey: .id))
        case "token.accepted": self = .tokenAccepted(expiresAt: try container.decodeIfPresent(Int.self, forKey: .tokenExpiresAt))
        case "token.refused": self = .tokenRefused(try ErrorMessage(from: decoder))
        default:
            throw DecodingError.dataCorruptedError(forKey: .type, in: container, debugDescription: "unknown message type \(type)")
        }
    }
}

extension ServerMessage {
    /// The message for an engine outcome, to be sent as docs/protocol.md#outcomes says: a new
    /// commit to every member, anything else to the sender alone.
    public init(_ outcome: Outcome) {
        switch outcome {
        case .committed(let commit): self = .committed(commit.event)
        case .noop(let noop), .repeated(.noop(let noop)): self = .noop(noop)
        case .rejected(let rejection), .repeated(.rejected(let rejection)): self = .rejected(Rejected(rejection))
        case .repeated(.committed(let event)): self = .committed(event)
        }
    }
}
