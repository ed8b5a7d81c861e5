// The values the cases of `ServerMessage` (ServerMessage.swift) carry: welcome, drag, rejected, error, …

import CorkboardModel

/// Where a peer's dragged items would land (docs/protocol.md#6-presence-drag-state):
/// `before` is the id at `index` in the list without the dragged items, nil (written
/// `null`) for the end. In a drag of columns the list is the board's columns: `collection`
/// is nil (absent on the wire) and `before` is a column id.
public struct DragTarget: Sendable, Hashable, Codable {
    public var collection: CollectionID?
    public var index: Int
    public var before: String?

    public init(collection: CollectionID?, index: Int, before: String?) {
        self.collection = collection
        self.index = index
        self.before = before
    }

    private enum CodingKeys: String, CodingKey { case collection, index, before }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        collection = try container.decodeIfPresent(CollectionID.self, forKey: .collection)
        index = try container.decode(Int.self, forKey: .index)
        before = try container.decodeIfPresent(String.self, forKey: .before)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(collection, forKey: .collection)
        try container.encode(index, forKey: .index)
        try container.encode(before, forKey: .before)
    }
}

/// A peer's live drag: `{"items":[…],"over":{…}|null}`, or for a drag of columns
/// `{"collections":[…],"over":{…}|null}`.
public struct DragState: Sendable, Hashable, Codable {
    /// Empty in a drag of columns.
    public var items: [ItemID]
    /// The columns a drag of columns holds; nil in a drag of items.
    public var collections: [CollectionID]?
    /// Nil (written `null`) until the first `drag.over`.
    public var over: DragTarget?

    public init(items: [ItemID], collections: [CollectionID]? = nil, over: DragTarget?) {
        self.items = items
        self.collections = collections
        self.over = over
    }

    private enum CodingKeys: String, CodingKey { case items, collections, over }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        collections = try container.decodeIfPresent([CollectionID].self, forKey: .collections)
        items = collections == nil ? try container.decode([ItemID].self, forKey: .items) : []
        over = try container.decodeIfPresent(DragTarget.self, forKey: .over)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        if let collections {
            try container.encode(collections, forKey: .collections)
        } else {
            try container.encode(items, forKey: .items)
        }
        try container.encode(over, forKey: .over)
    }
}

/// One entry of `welcome.peers`: `{"client","name","hue"?,"drag":…|null}`.
public struct Peer: Sendable, Hashable, Codable {
    public var client: ClientID
    public var name: String
    /// The colour it chose (docs/protocol.md#colours); nil, and absent on the wire, when none.
    public var hue: Hue?
    public var drag: DragState?

    public init(client: ClientID, name: String, hue: Hue? = nil, drag: DragState? = nil) {
        self.client = client
        self.name = name
        self.hue = hue
        self.drag = drag
    }

    private enum CodingKeys: String, CodingKey { case client, name, hue, drag }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(client, forKey: .client)
        try container.encode(name, forKey: .name)
        try container.encodeIfPresent(hue, forKey: .hue)
        try container.encode(drag, forKey: .drag)
    }
}

/// The answer to `hello` (docs/protocol.md#3-joining). With `resumed` there is no `board`.
public struct Welcome: Sendable, Hashable, Codable {
    public var client: ClientID
    public var role: Role
    public var epoch: String
    public var seq: Int
    public var resumed: Bool
    public var board: Board?
    /// At most `MembershipLimits.listedPeers`: those dragging first, then the latest to join.
    public var peers: [Peer]
    /// The peers on the board, the new member included unless it observes.
    public var count: Int
    /// When the member's token expires, in milliseconds since 1970 (a signed token's `exp`):
    /// the connection is closed 4001 past it unless the token is refreshed
    /// (docs/protocol.md#refreshing-the-token). Nil for a token that does not expire.
    public var tokenExpiresAt: Int?
    /// The name the others see this member by: its `hello` name, or a signed token's `name`,
    /// which wins. Nil in a welcome written by an older server.
    public var name: String?
    /// The hue its `hello` chose; nil (absent) when it chose none.
    public var hue: Hue?

    /// `count` nil: as many as `peers` lists (a board small enough to list in full, seen by
    /// an observer).
    public init(
        client: ClientID, role: Role, epoch: String, seq: Int, resumed: Bool, board: Board?, peers: [Peer], count: Int? = nil,
        tokenExpiresAt: Int? = nil, name: String? = nil, hue: Hue? = nil
    ) {
        self.tokenExpiresAt = tokenExpiresAt
        self.name = name
        self.hue = hue
        self.client = client
        self.role = role
        self.epoch = epoch
        self.seq = seq
        self.resumed = resumed
        self.board = board
        self.peers = peers
        self.count = count ?? peers.count
    }
}

/// `{"type":"drag","client","name","items","over"}`: a peer's drag, sent once per drag (at
/// its start, or when a drag in progress is first heard of); its placeholder moves follow
/// as `drag.over`, so the item list never travels again. A drag of columns has
/// `collections` instead of `items`.
public struct DragUpdate: Sendable, Hashable, Codable {
    public var client: ClientID
    public var name: String
    /// Empty in a drag of columns.
    public var items: [ItemID]
    /// The columns a drag of columns holds; nil in a drag of items.
    public var collections: [CollectionID]?
    public var over: DragTarget?

    public init(client: ClientID, name: String, items: [ItemID], collections: [CollectionID]? = nil, over: DragTarget?) {
        self.client = client
        self.name = name
        self.items = items
        self.collections = collections
        self.over = over
    }

    /// The drag as `welcome.peers[].drag` shows it.
    public var state: DragState { DragState(items: items, collections: collections, over: over) }

    private enum CodingKeys: String, CodingKey { case client, name, items, collections, over }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        client = try container.decode(ClientID.self, forKey: .client)
        name = try container.decode(String.self, forKey: .name)
        collections = try container.decodeIfPresent([CollectionID].self, forKey: .collections)
        items = collections == nil ? try container.decode([ItemID].self, forKey: .items) : []
        over = try container.decodeIfPresent(DragTarget.self, forKey: .over)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(client, forKey: .client)
        try container.encode(name, forKey: .name)
        if let collections {
            try container.encode(collections, forKey: .collections)
        } else {
            try container.encode(items, forKey: .items)
        }
        try container.encode(over, forKey: .over)
    }
}

/// Why a drag ended (docs/protocol.md#6-presence-drag-state).
public enum DragClearReason: String, Sendable, Hashable, Codable, CaseIterable {
    case drop, cancel, left, timeout, deleted
    /// Held for longer than the server allows (`--max-drag-seconds`), whatever came meanwhile.
    case expired
}

/// `{"type":"rejected",…}`: for an operation it carries `opId` and `message`; for a
/// `drag.start` that is `busy`, `ref` and `holder`.
public struct Rejected: Sendable, Hashable, Codable {
    public var opId: OperationID?
    public var ref: String?
    public var code: RejectionCode
    public var message: String?
    public var holder: ClientID?

    public init(opId: OperationID?, ref: String? = nil, code: RejectionCode, message: String?, holder: ClientID? = nil) {
        self.opId = opId
        self.ref = ref
        self.code = code
        self.message = message
        self.holder = holder
    }

    /// The wire form of the engine's rejection of an operation.
    public init(_ rejection: Rejection) {
        self.init(opId: rejection.opId, code: rejection.code, message: rejection.message)
    }

    /// `{"type":"rejected","ref":"drag.start","code":"busy","holder":…}`.
    public static func dragStartBusy(holder: ClientID) -> Rejected {
        Rejected(opId: nil, ref: "drag.start", code: .busy, message: nil, holder: holder)
    }

    /// `{"type":"rejected","ref":"drag.start","code":…,"message":…}`.
    public static func dragStart(_ code: RejectionCode, _ message: String) -> Rejected {
        Rejected(opId: nil, ref: "drag.start", code: code, message: message)
    }
}

/// The code of an `error` message. A struct, not an enum, so the server can add codes
/// without breaking clients that decode with an older version.
public struct ErrorCode: RawRepresentable, Sendable, Hashable, Codable {
    public var rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    public static let invalid = ErrorCode(rawValue: "invalid")
    public static let notFound = ErrorCode(rawValue: "not-found")
    public static let forbidden = ErrorCode(rawValue: "forbidden")
    /// No token, or one that proves nothing (unknown, expired, badly signed): HTTP's 401.
    public static let unauthorized = ErrorCode(rawValue: "unauthorized")
    /// The board was deleted while the member was in it.
    public static let gone = ErrorCode(rawValue: "gone")
    /// A message beyond its rate that is answered rather than queued (`ping`).
    public static let rateLimited = ErrorCode(rawValue: "rate-limited")

    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

/// `{"type":"error","code":…,"message":…}`.
public struct ErrorMessage: Sendable, Hashable, Codable {
    public var code: ErrorCode
    public var message: String

    public init(code: ErrorCode, message: String) {
        self.code = code
        self.message = message
    }
}

/// Thrown (and returned in `Result`s) where a body or message is refused with this `error`.
extension ErrorMessage: Error {}
