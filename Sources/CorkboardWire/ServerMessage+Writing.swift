import CorkboardModel

/// Server messages written by `JSONWriter`, the same bytes as their `Codable` encoding
/// (keys sorted). `welcome`, rare and holding a whole board, and the membership messages, rare too, are left
/// to `JSONEncoder`.
extension ServerMessage {
    /// The message's JSON, or nil for a `welcome` and the membership messages (encoded once
    /// a tick or once a request).
    var writtenJSON: [UInt8]? {
        switch self {
        case .welcome, .peers, .peersPage:
            return nil
        default:
            var json = JSONWriter()
            json.write(self)
            return json.bytes
        }
    }
}

extension JSONWriter {
    /// Any message but a `welcome` and the membership messages (which `writtenJSON` leaves to
    /// `JSONEncoder`), as an object.
    fileprivate mutating func write(_ message: ServerMessage) {
        // The cases below write through `json`; swapping moves the buffer without copying it.
        var json = JSONWriter(capacity: 0)
        swap(&json, &self)
        defer { swap(&json, &self) }
        json.openObject()
        switch message {
        case .welcome, .peers, .peersPage:
            assertionFailure("a welcome and the membership messages are written by JSONEncoder")
        case .peerJoined(let client, let name, let hue):
            json.key("client")
            json.string(client)
            if let hue {
                json.key("hue")
                json.int(Int(hue))
            }
            json.key("name")
            json.string(name)
        case .peerLeft(let client):
            json.key("client")
            json.string(client)
        case .drag(let update):
            json.key("client")
            json.string(update.client)
            if let collections = update.collections {
                json.key("collections")
                json.strings(collections)
            } else {
                json.key("items")
                json.strings(update.items)
            }
            json.key("name")
            json.string(update.name)
            json.key("over")
            if let over = update.over { json.write(over) } else { json.null() }
        case .dragOver(let client, let over):
            json.key("client")
            json.string(client)
            json.key("over")
            json.write(over)
        case .dragCleared(let client, let reason):
            json.key("client")
            json.string(client)
            json.key("reason")
            json.string(reason.rawValue)
        case .editing(let client, let name, let item):
            json.key("client")
            json.string(client)
            json.key("item")
            json.optionalString(item)
            json.key("name")
            json.string(name)
        case .drags(let changes):
            json.key("changes")
            json.openArray()
            for change in changes { json.write(change.message) }
            json.closeArray()
        case .committed(let event):
            json.key("adjusted")
            json.bool(event.adjusted)
            // Absent, not null, for an event stored before its time and author were kept.
            if let at = event.at {
                json.key("at")
                json.int(at)
            }
            if let by = event.by {
                json.key("by")
                json.string(by)
            }
            json.key("client")
            json.string(event.client)
            json.objectMember("op") { $0.write(event.op) }
            json.key("opId")
            json.string(event.opId)
            json.key("seq")
            json.int(event.seq)
        case .noop(let noop):
            json.key("noop")
            json.bool(true)
            json.key("opId")
            json.string(noop.opId)
            json.key("seq")
            json.int(noop.seq)
        case .rejected(let rejected):
            json.key("code")
            json.string(rejected.code.rawValue)
            if let holder = rejected.holder {
                json.key("holder")
                json.string(holder)
            }
            if let message = rejected.message {
                json.key("message")
                json.string(message)
            }
            if let opId = rejected.opId {
                json.key("opId")
                json.string(opId)
            }
            if let ref = rejected.ref {
                json.key("ref")
                json.string(ref)
            }
        case .error(let error), .tokenRefused(let error):
            json.key("code")
            json.string(error.code.rawValue)
            json.key("message")
            json.string(error.message)
        case .pong(let id):
            json.key("id")
            json.string(id)
        case .tokenAccepted(let expiresAt):
            if let expiresAt {
                json.key("tokenExpiresAt")
                json.int(expiresAt)
            }
        }
        json.key("type")
        json.string(message.typeName)
        json.closeObject()
    }
    /// `{"before","collection","index"}`.
    mutating func write(_ target: DragTarget) {
        openObject()
        key("before")
        optionalString(target.before)
        if let collection = target.collection {
            key("collection")
            string(collection)
        }
        key("index")
        int(target.index)
        closeObject()
    }

    /// An operation's members (inside its object), in sorted order, `type` among them.
    fileprivate mutating func write(_ operation: BoardOperation) {
        switch operation {
        case .move(let sources, let destination):
            objectMember("destination") { $0.write(destination) }
            key("sources")
            strings(sources)
        case .insert(let items, let destination):
            objectMember("destination") { $0.write(destination) }
            key("items")
            openArray()
            for item in items { write(item) }
            closeArray()
        case .delete(let items):
            key("items")
            strings(items)
        case .updateItem(let item, let label, let data):
            switch data {
            case .unchanged: break
            case .replace(let members):
                key("data")
                object(members)
            case .remove:
                key("data")
                null()
            }
            key("item")
            string(item)
            if let label {
                key("label")
                string(label)
            }
        case .updateFolder(let item, let accepts):
            key("accepts")
            bool(accepts)
            key("item")
            string(item)
        case .renameCollection(let collection, let title):
            key("collection")
            string(collection)
            key("title")
            string(title)
        case .renameBoard(let title):
            key("title")
            string(title)
        case .addCollection(let collection, let title, let before):
            key("before")
            optionalString(before)
            objectMember("collection") { header in
                header.key("id")
                header.string(collection)
                header.key("title")
                header.string(title)
            }
        case .removeCollection(let collection):
            key("collection")
            string(collection)
        case .removeCollectionAndItems(let collection):
            // `withItems` sorts after `type`, so this one writes its `type` itself.
            key("collection")
            string(collection)
            key("type")
            string(operation.typeName)
            key("withItems")
            bool(true)
            return
        case .moveCollections(let collections, let before):
            key("before")
            optionalString(before)
            key("collections")
            strings(collections)
        case .lock(let locked):
            key("locked")
            bool(locked)
        }
        key("type")
        string(operation.typeName)
    }

    /// `"before":…,"collection":…` (members of the enclosing object).
    private mutating func write(_ destination: Destination) {
        key("before")
        optionalString(destination.before)
        key("collection")
        string(destination.collection)
    }

    /// `{"data"?,"folder"?,"id","label"}`: `data` absent when the item has none, `folder`
    /// (`{"accepts"}`) when it is not a folder.
    mutating func write(_ item: Item) {
        openObject()
        if let data = item.data {
            key("data")
            object(data)
        }
        if let folder = item.folder {
            objectMember("folder") { members in
                members.key("accepts")
                members.bool(folder.accepts)
            }
        }
        key("id")
        string(item.id)
        key("label")
        string(item.label)
        closeObject()
    }

    private mutating func optionalString(_ value: String?) {
        if let value { string(value) } else { null() }
    }
}
