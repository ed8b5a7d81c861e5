import CorkboardModel
import Foundation

/// The bodies of the HTTP API (docs/protocol.md#8-http-api), shared by the server and by bots
/// that call it.

/// `GET /api/boards/{id}` and the answer to `POST /api/boards`: the board as in `welcome`,
/// with `seq` and `epoch` at its top level.
public struct BoardDocument: Sendable, Hashable, Codable {
    public var board: Board
    public var seq: Int
    public var epoch: String

    public init(board: Board, seq: Int, epoch: String) {
        self.board = board
        self.seq = seq
        self.epoch = epoch
    }

    private enum CodingKeys: String, CodingKey { case seq, epoch }

    public init(from decoder: any Decoder) throws {
        board = try Board(from: decoder)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        seq = try container.decode(Int.self, forKey: .seq)
        epoch = try container.decode(String.self, forKey: .epoch)
    }

    public func encode(to encoder: any Encoder) throws {
        try board.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(seq, forKey: .seq)
        try container.encode(epoch, forKey: .epoch)
    }
}

/// `GET /api/boards?limit=N&cursor=C`: `{"boards":[{"id","title","seq"}],"next":C}`, in pages
/// by id; `next` (the `cursor` of the next page) only when there is one.
public struct BoardList: Sendable, Hashable, Codable {
    public var boards: [BoardSummary]
    public var next: String?

    public init(boards: [BoardSummary], next: String? = nil) {
        self.boards = boards
        self.next = next
    }
}

/// `GET /api/boards/{id}/ops?since=N&limit=M`: `{"events":[…],"next":S}`, each event exactly
/// the `committed` message a WebSocket member received; `next` (the seq of the page's last
/// event, the `since` of the next page) only when the board has events after this page.
public struct EventPage: Sendable, Hashable, Codable {
    public var events: [CommittedEvent]
    public var next: Int?

    public init(events: [CommittedEvent], next: Int? = nil) {
        self.events = events
        self.next = next
    }

    private enum CodingKeys: String, CodingKey { case events, next }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        events = try container.decode([ServerMessage].self, forKey: .events).map { message in
            guard case .committed(let event) = message else {
                throw DecodingError.dataCorruptedError(
                    forKey: .events, in: container, debugDescription: "events must be committed messages")
            }
            return event
        }
        next = try container.decodeIfPresent(Int.self, forKey: .next)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(events.map(ServerMessage.committed), forKey: .events)
        try container.encodeIfPresent(next, forKey: .next)
    }

    /// The body of one page, as `WireFormat.encode` would write it: the events in order until
    /// the next one would take the body past `byteBudget` (always at least one), with `next`
    /// when some were left out or `more` says the board has events after `events`.
    /// Each event is encoded once, straight into the body.
    public static func encodedPage(_ events: [CommittedEvent], byteBudget: Int, more: Bool) throws -> (body: [UInt8], count: Int) {
        var body = Array(#"{"events":["#.utf8)
        var count = 0
        for event in events {
            let encoded = try WireFormat.encode(ServerMessage.committed(event))
            // Room for the comma, `]`, and the `,"next":…}` that follows a cut.
            if count > 0 && body.count + encoded.count + 32 > byteBudget { break }
            if count > 0 { body.append(UInt8(ascii: ",")) }
            body += encoded
            count += 1
        }
        body.append(UInt8(ascii: "]"))
        if let last = events.prefix(count).last, more || count < events.count {
            body += Array(#","next":\#(last.seq)"#.utf8)
        }
        body.append(UInt8(ascii: "}"))
        return (body, count)
    }
}

extension WireFormat {
    /// The body of `POST /api/boards`: `{"id","title","collections":[…]}` (`locked`
    /// optional, false by default; `folders` optional, `{"<folder id>":[items…]}`). Returns the board, or what is wrong with the body, naming
    /// the field by its path (`collections[1].items[3].id`); a field the body may not have is
    /// refused, not ignored. The board's own rules (ids, duplicates) are checked by whoever
    /// creates it.
    public static func decodeNewBoard(_ data: Data) -> Result<Board, ErrorMessage> {
        let fields: FieldReader
        switch objectBody(data) {
        case .success(let reader): fields = reader
        case .failure(let error): return .failure(error)
        }
        do throws(FieldError) {
            try fields.refuseUnknownFields(["id", "title", "locked", "collections", "folders"])
            let collections = try fields.objects("collections").map { collection throws(FieldError) in
                try collection.refuseUnknownFields(["id", "title", "items"])
                let items = try collection.has("items") ? collection.objects("items") : []
                return BoardCollection(
                    id: try collection.string("id"), title: try collection.string("title"),
                    items: try items.map { item throws(FieldError) in
                        try item.refuseUnknownFields(["id", "label", "data", "folder"])
                        return try Self.item(item)
                    })
            }
            var folders: [ItemID: [Item]] = [:]
            if fields.has("folders") {
                let contents = try fields.object("folders")
                for folder in contents.object.keys.sorted() {
                    folders[folder] = try FieldReader(contents.object, path: "folders").objects(folder).map { item throws(FieldError) in
                        try item.refuseUnknownFields(["id", "label", "data", "folder"])
                        return try Self.item(item)
                    }
                }
            }
            let locked = fields.has("locked") ? try fields.bool("locked") : false
            return .success(
                Board(
                    id: try fields.string("id"), title: try fields.string("title"), locked: locked, collections: collections,
                    folders: folders))
        } catch {
            return .failure(ErrorMessage(code: .invalid, message: error.message))
        }
    }

    /// The body of `PATCH /api/boards/{id}`: `{"title":…}` and nothing else. Returns the new
    /// title (its length is the resolver's to check, as for every title), or what is wrong.
    public static func decodeBoardRename(_ data: Data) -> Result<String, ErrorMessage> {
        let fields: FieldReader
        switch objectBody(data) {
        case .success(let reader): fields = reader
        case .failure(let error): return .failure(error)
        }
        do throws(FieldError) {
            try fields.refuseUnknownFields(["title"])
            return .success(try fields.string("title"))
        } catch {
            return .failure(ErrorMessage(code: .invalid, message: error.message))
        }
    }

    /// A body that must be one JSON object, ready to read field by field.
    private static func objectBody(_ data: Data) -> Result<FieldReader, ErrorMessage> {
        let body: JSONValue
        do throws(JSONParser.Failure) {
            body = try JSONParser.parse(data)
        } catch .malformed {
            return .failure(ErrorMessage(code: .invalid, message: "the body must be a JSON object"))
        } catch {
            return .failure(ErrorMessage(code: .invalid, message: error.message))
        }
        guard case .object(let object) = body else {
            return .failure(ErrorMessage(code: .invalid, message: "the body must be a JSON object"))
        }
        return .success(FieldReader(object))
    }

    /// One `{"id","label","data"?,"folder"?}` object of an `insert` or a new board; a
    /// `folder` without `accepts` accepts drops.
    static func item(_ item: FieldReader) throws(FieldError) -> Item {
        let data = try item.optionalObject("data").map(\.object)
        var folder: Folder?
        if item.has("folder") {
            let fields = try item.object("folder")
            try FieldReader(fields.object, path: item.name("folder")).refuseUnknownFields(["accepts"])
            folder = Folder(accepts: try fields.optionalBool("accepts") ?? true)
        }
        return Item(id: try item.string("id"), label: try item.string("label"), data: data, folder: folder)
    }
}
