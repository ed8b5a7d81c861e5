import CorkboardModel

/// Operation requests (docs/protocol.md#4-operations) to and from their JSON objects.
extension OperationRequest {
    /// Reads an operation whose `type` is one of `ClientMessage.operationTypes`.
    init(json fields: FieldReader, type: String) throws(FieldError) {
        let opId = try fields.string("opId")
        let baseSeq = try fields.optionalInt("baseSeq")
        let operation: RequestedOperation
        switch type {
        case "move" where fields.has("fromOffsets"):
            operation = .moveByOffsets(
                collection: try fields.string("collection"), fromOffsets: try fields.ints("fromOffsets"),
                toOffset: try fields.int("toOffset"), toCollection: try fields.optionalString("toCollection"))
        case "move":
            operation = .move(sources: try fields.strings("sources"), destination: try Self.destination(fields))
        case "insert":
            operation = .insert(items: try fields.objects("items").map(WireFormat.item), destination: try Self.destination(fields))
        case "delete":
            operation = .delete(items: try fields.strings("items"))
        case "update" where fields.has("accepts"):
            // A folder's accepts goes in an update of its own.
            guard !fields.has("label"), !fields.has("data"), !fields.has("collection"), !fields.has("title") else {
                throw FieldError(message: "an update of a folder's accepts changes nothing else")
            }
            operation = .updateFolder(item: try fields.string("item"), accepts: try fields.bool("accepts"))
        case "update" where fields.has("item"):
            guard !fields.has("collection") else {
                throw FieldError(message: "an update names an item or a collection, not both")
            }
            operation = .updateItem(
                item: try fields.string("item"), label: try fields.optionalString("label"), data: try Self.dataChange(fields))
        case "update" where !fields.has("collection"):
            // Neither an item nor a collection: the board's own title.
            operation = .renameBoard(title: try fields.string("title"))
        case "update":
            operation = .renameCollection(collection: try fields.string("collection"), title: try fields.string("title"))
        case "collection.add":
            let collection = try fields.object("collection")
            operation = .addCollection(
                collection: try collection.string("id"), title: try collection.string("title"),
                before: try fields.optionalString("before"))
        case "collection.remove":
            let collection = try fields.string("collection")
            let withItems = try fields.optionalBool("withItems") ?? false
            operation = withItems ? .removeCollectionAndItems(collection: collection) : .removeCollection(collection: collection)
        case "collection.move" where fields.has("fromOffsets"):
            operation = .moveCollectionsByOffsets(fromOffsets: try fields.ints("fromOffsets"), toOffset: try fields.int("toOffset"))
        case "collection.move":
            operation = .moveCollections(collections: try fields.strings("collections"), before: try fields.optionalString("before"))
        case "lock":
            operation = .lock(locked: try fields.bool("locked"))
        default:
            throw FieldError(message: "unknown operation type \"\(type)\"")
        }
        self.init(opId: opId, baseSeq: baseSeq, operation)
    }

    private static func destination(_ fields: FieldReader) throws(FieldError) -> Destination {
        let destination = try fields.object("destination")
        return Destination(collection: try destination.string("collection"), before: try destination.optionalString("before"))
    }

    /// Absent `data` leaves it, `null` removes it, an object replaces it.
    private static func dataChange(_ fields: FieldReader) throws(FieldError) -> DataChange {
        guard fields.has("data") else { return .unchanged }
        guard let object = try fields.optionalObject("data") else { return .remove }
        return .replace(object.object)
    }

    /// The request as a JSON object, as a client sends it.
    var json: JSONObject {
        var object: JSONObject = ["opId": .string(opId)]
        if let baseSeq { object["baseSeq"] = .number(Double(baseSeq)) }
        func destination(_ destination: Destination) -> JSONValue {
            .object(["collection": .string(destination.collection), "before": destination.before.map(JSONValue.string) ?? .null])
        }
        switch operation {
        case .move(let sources, let target):
            object["type"] = "move"
            object["sources"] = .array(sources.map(JSONValue.string))
            object["destination"] = destination(target)
        case .moveByOffsets(let collection, let fromOffsets, let toOffset, let toCollection):
            object["type"] = "move"
            object["collection"] = .string(collection)
            object["fromOffsets"] = .array(fromOffsets.map { .number(Double($0)) })
            object["toOffset"] = .number(Double(toOffset))
            if let toCollection { object["toCollection"] = .string(toCollection) }
        case .insert(let items, let target):
            object["type"] = "insert"
            object["items"] = .array(
                items.map { item in
                    var fields: JSONObject = ["id": .string(item.id), "label": .string(item.label)]
                    if let data = item.data { fields["data"] = .object(data) }
                    if let folder = item.folder { fields["folder"] = .object(["accepts": .bool(folder.accepts)]) }
                    return .object(fields)
                })
            object["destination"] = destination(target)
        case .delete(let items):
            object["type"] = "delete"
            object["items"] = .array(items.map(JSONValue.string))
        case .updateItem(let item, let label, let data):
            object["type"] = "update"
            object["item"] = .string(item)
            if let label { object["label"] = .string(label) }
            switch data {
            case .unchanged: break
            case .replace(let value): object["data"] = .object(value)
            case .remove: object["data"] = .null
            }
        case .updateFolder(let item, let accepts):
            object["type"] = "update"
            object["item"] = .string(item)
            object["accepts"] = .bool(accepts)
        case .renameCollection(let collection, let title):
            object["type"] = "update"
            object["collection"] = .string(collection)
            object["title"] = .string(title)
        case .renameBoard(let title):
            object["type"] = "update"
            object["title"] = .string(title)
        case .addCollection(let collection, let title, let before):
            object["type"] = "collection.add"
            object["collection"] = .object(["id": .string(collection), "title": .string(title)])
            object["before"] = before.map(JSONValue.string) ?? .null
        case .removeCollection(let collection):
            object["type"] = "collection.remove"
            object["collection"] = .string(collection)
        case .removeCollectionAndItems(let collection):
            object["type"] = "collection.remove"
            object["collection"] = .string(collection)
            object["withItems"] = .bool(true)
        case .moveCollections(let collections, let before):
            object["type"] = "collection.move"
            object["collections"] = .array(collections.map(JSONValue.string))
            object["before"] = before.map(JSONValue.string) ?? .null
        case .moveCollectionsByOffsets(let fromOffsets, let toOffset):
            object["type"] = "collection.move"
            object["fromOffsets"] = .array(fromOffsets.map { .number(Double($0)) })
            object["toOffset"] = .number(Double(toOffset))
        case .lock(let locked):
            object["type"] = "lock"
            object["locked"] = .bool(locked)
        }
        return object
    }
}
