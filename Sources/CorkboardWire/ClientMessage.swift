import CorkboardModel

/// `hello`'s optional resume point (docs/protocol.md#resume).
public struct ResumePoint: Sendable, Hashable {
    public var epoch: String
    public var seq: Int

    public init(epoch: String, seq: Int) {
        self.epoch = epoch
        self.seq = seq
    }
}

/// `{"type":"hello","board":…,"name":…,"hue":…,"token":…,"resume":{…},"observe":true}`.
public struct Hello: Sendable, Hashable {
    public var board: String
    public var name: String
    /// The colour the others see it in (docs/protocol.md#colours); nil: none chosen.
    public var hue: Hue?
    public var token: String?
    public var resume: ResumePoint?
    /// Follows the board without being a peer (docs/protocol.md#observers): never listed in
    /// `peers`, `peer.joined` or `peer.left`, and may neither operate nor drag.
    public var observe: Bool
    /// How it takes drag batches (docs/protocol.md#compact-drags).
    public var presence: PresenceForm

    public init(
        board: String, name: String, token: String? = nil, resume: ResumePoint? = nil, observe: Bool = false,
        presence: PresenceForm = .full, hue: Hue? = nil
    ) {
        self.board = board
        self.name = name
        self.hue = hue
        self.token = token
        self.resume = resume
        self.observe = observe
        self.presence = presence
    }
}

/// `hello`'s `presence`: the form of the `drags` batches a member takes
/// (docs/protocol.md#compact-drags). Any other string is taken as `full`, so a client may
/// offer a form a newer server knows and an older one ignores.
public enum PresenceForm: String, Sendable, Hashable {
    /// `{"type":"drags","changes":[…]}`, each change the single message it stands for.
    case full
    /// `{"type":"drags.compact","changes":[…]}`, each change an array without keys.
    case compact
}

/// Every message a client sends (docs/protocol.md).
public enum ClientMessage: Sendable, Hashable {
    case hello(Hello)
    /// `{"type":"drag.start","items":[…]}`
    case dragStart(items: [ItemID])
    /// `{"type":"drag.start","collections":[…]}`: a drag of columns.
    case dragStartColumns(collections: [CollectionID])
    /// `{"type":"drag.over","collection":…,"index":…}`; without `collection` (nil), a
    /// placeholder among the board's columns in a drag of columns.
    case dragOver(collection: CollectionID?, index: Int)
    /// `{"type":"drag.end"}`
    case dragEnd
    /// `{"type":"editing","item":…}`: the client is editing that item's label, or (`null`)
    /// no longer edits one (docs/protocol.md#editing-marks).
    case editing(item: ItemID?)
    /// `{"type":"ping","id":…}`: answered `pong` with the same id, so a client can tell a
    /// live connection from a silently dead one (docs/protocol.md#liveness).
    case ping(id: String)
    /// `{"type":"peers.list","after":cursor,"limit":n}`: a page of the board's peers
    /// (docs/protocol.md#peers-list); `after` absent for the first page.
    case peersList(after: Int?, limit: Int)
    /// Any of the operations of docs/protocol.md#4-operations.
    case operation(OperationRequest)
    /// `{"type":"token","token":…}`: a new token for the live connection, before its own
    /// expires (docs/protocol.md#refreshing-the-token).
    case token(String)

    /// The `type` strings of the operations, which get `rejected` rather than `error`.
    public static let operationTypes: Set<String> = [
        "move", "insert", "delete", "update", "collection.add", "collection.remove", "collection.move", "lock",
    ]
}

extension ClientMessage {
    /// Reads a message from its JSON object. Throws `FieldError` for an unknown type or
    /// a missing or ill-typed field.
    init(json object: JSONObject) throws(FieldError) {
        let fields = FieldReader(object)
        let type = try fields.string("type")
        switch type {
        case "hello":
            let resume = try fields.optionalObject("resume").flatMap { resume throws(FieldError) -> ResumePoint? in
                let epoch = try resume.string("epoch")
                // A seq no board reaches cannot be resumed from: the hello is answered as one
                // without `resume`, with a full snapshot (docs/protocol.md#resume), not refused.
                guard let seq = try resume.seq("seq") else { return nil }
                return ResumePoint(epoch: epoch, seq: seq)
            }
            let hue = try fields.optionalInt("hue")
            if let hue, !Hues.valid.contains(hue) {
                throw FieldError(message: "hello hue must be an integer from 0 to 359, or null")
            }
            self = .hello(
                Hello(
                    board: try fields.string("board"), name: try fields.string("name"),
                    token: try fields.optionalString("token"), resume: resume, observe: try fields.optionalBool("observe") ?? false,
                    presence: try fields.optionalString("presence").flatMap(PresenceForm.init(rawValue:)) ?? .full,
                    hue: hue.map(Hue.init)))
        case "drag.start":
            // Items or columns, never both: one drag holds one kind.
            switch (object["items"], object["collections"]) {
            case (.some, .some), (nil, nil):
                throw FieldError(message: "drag.start takes exactly one of items and collections")
            case (nil, .some):
                self = .dragStartColumns(collections: try fields.strings("collections"))
            case (.some, nil):
                self = .dragStart(items: try fields.strings("items"))
            }
        case "drag.over":
            let collection = try fields.optionalString("collection")
            // Checked here, not only against the board: a lookup by Swift `==` would find the
            // collection under another Unicode spelling of its id.
            if let collection, !Limits.isValidID(collection) {
                throw FieldError(message: "drag.over collection must be \(Limits.idRule)")
            }
            self = .dragOver(collection: collection, index: try fields.int("index"))
        case "drag.end":
            self = .dragEnd
        case "editing":
            let item = try fields.optionalString("item")
            // Checked here, like a drag.over's collection: the mark names the id as sent.
            if let item, !Limits.isValidID(item) {
                throw FieldError(message: "editing item must be \(Limits.idRule) or null")
            }
            self = .editing(item: item)
        case "ping":
            let id = try fields.string("id")
            guard Limits.isValidID(id) else {
                throw FieldError(message: "ping id must be \(Limits.idRule)")
            }
            self = .ping(id: id)
        case "peers.list":
            let after = try fields.optionalInt("after")
            let limit = try fields.optionalInt("limit") ?? MembershipLimits.defaultPage
            guard (1...MembershipLimits.maximumPage).contains(limit) else {
                throw FieldError(message: "peers.list limit must be 1 to \(MembershipLimits.maximumPage)")
            }
            guard (after ?? 0) >= 0 else { throw FieldError(message: "peers.list after must be a cursor from peers.page") }
            self = .peersList(after: after, limit: limit)
        case "token":
            self = .token(try fields.string("token"))
        case _ where Self.operationTypes.contains(type):
            self = .operation(try OperationRequest(json: fields, type: type))
        default:
            throw FieldError(message: "unknown message type \"\(type)\"")
        }
    }

    /// The message as a JSON object, as a bot sends it.
    var json: JSONObject {
        switch self {
        case .hello(let hello):
            var object: JSONObject = ["type": "hello", "board": .string(hello.board), "name": .string(hello.name)]
            if let token = hello.token { object["token"] = .string(token) }
            if let resume = hello.resume {
                object["resume"] = .object(["epoch": .string(resume.epoch), "seq": .number(Double(resume.seq))])
            }
            if hello.observe { object["observe"] = .bool(true) }
            if let hue = hello.hue { object["hue"] = .number(Double(hue)) }
            if hello.presence != .full { object["presence"] = .string(hello.presence.rawValue) }
            return object
        case .dragStart(let items):
            return ["type": "drag.start", "items": .array(items.map(JSONValue.string))]
        case .dragStartColumns(let collections):
            return ["type": "drag.start", "collections": .array(collections.map(JSONValue.string))]
        case .dragOver(let collection, let index):
            var object: JSONObject = ["type": "drag.over", "index": .number(Double(index))]
            if let collection { object["collection"] = .string(collection) }
            return object
        case .dragEnd:
            return ["type": "drag.end"]
        case .editing(let item):
            return ["type": "editing", "item": item.map(JSONValue.string) ?? .null]
        case .ping(let id):
            return ["type": "ping", "id": .string(id)]
        case .peersList(let after, let limit):
            var object: JSONObject = ["type": "peers.list", "limit": .number(Double(limit))]
            if let after { object["after"] = .number(Double(after)) }
            return object
        case .operation(let request):
            return request.json
        case .token(let token):
            return ["type": "token", "token": .string(token)]
        }
    }
}
