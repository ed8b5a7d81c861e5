/// Operations in their resolved form: what a `committed` event carries
/// (docs/protocol.md#outcomes) and
/// what applying to the board at `seq - 1` turns it into the board at `seq`.

/// Where items land: before `before` in `collection`, or at its end when `before` is nil.
public struct Destination: Sendable, Hashable, Codable {
    public var collection: CollectionID
    public var before: ItemID?

    public init(collection: CollectionID, before: ItemID? = nil) {
        self.collection = collection
        self.before = before
    }

    private enum CodingKeys: String, CodingKey { case collection, before }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        collection = try container.decode(CollectionID.self, forKey: .collection)
        before = try container.decodeIfPresent(ItemID.self, forKey: .before)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(collection, forKey: .collection)
        // The protocol shows `"before":null` for the end (docs/protocol.md#4-operations), so null
        // is written, not omitted.
        try container.encode(before, forKey: .before)
    }
}

/// How an update treats an item's `data`: absent on the wire leaves it, an object
/// replaces it, `null` removes it.
public enum DataChange: Sendable, Hashable {
    case unchanged
    case replace(JSONObject)
    case remove
}

/// A board change in resolved form. A move is always in anchor form here.
public enum BoardOperation: Sendable, Hashable {
    /// Move `sources` (in this order, contiguously) before `destination.before`.
    case move(sources: [ItemID], destination: Destination)
    case insert(items: [Item], destination: Destination)
    case delete(items: [ItemID])
    case updateItem(item: ItemID, label: String?, data: DataChange)
    /// An update of a folder's `accepts` (whether items may be dropped into it).
    case updateFolder(item: ItemID, accepts: Bool)
    case renameCollection(collection: CollectionID, title: String)
    /// An update naming neither an item nor a collection: the board's own title.
    case renameBoard(title: String)
    case addCollection(collection: CollectionID, title: String, before: CollectionID?)
    case removeCollection(collection: CollectionID)
    /// Remove a column with everything in it (and inside its folders): `collection.remove` with
    /// `"withItems":true`.
    case removeCollectionAndItems(collection: CollectionID)
    /// Move columns (in this order, contiguously) before the column `before`, or to the end
    /// when it is nil. Never names a folder's list.
    case moveCollections(collections: [CollectionID], before: CollectionID?)
    case lock(locked: Bool)

    /// The `type` string this operation has on the wire.
    public var typeName: String {
        switch self {
        case .move: "move"
        case .insert: "insert"
        case .delete: "delete"
        case .updateItem, .updateFolder, .renameCollection, .renameBoard: "update"
        case .addCollection: "collection.add"
        case .removeCollection, .removeCollectionAndItems: "collection.remove"
        case .moveCollections: "collection.move"
        case .lock: "lock"
        }
    }

    /// Whether the operation can take items off the board: a delete (with what a deleted
    /// folder holds), or a column removed with its items (which names none of them).
    public var takesItemsOffTheBoard: Bool {
        switch self {
        case .delete, .removeCollectionAndItems: true
        default: false
        }
    }
}

extension BoardOperation {
    /// Whether the operation removes a column (empty, or with its items): the drags of
    /// columns holding it end.
    public var removesAColumn: Bool {
        switch self {
        case .removeCollection, .removeCollectionAndItems: true
        default: false
        }
    }
}

/// The `{"id","title"}` object of `collection.add`.
struct CollectionHeader: Codable {
    var id: CollectionID
    var title: String
}

extension BoardOperation: Codable {
    enum CodingKeys: String, CodingKey {
        case type, sources, destination, items, item, label, data, accepts, collection, collections, title, before, locked, withItems
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(typeName, forKey: .type)
        switch self {
        case .move(let sources, let destination):
            try container.encode(sources, forKey: .sources)
            try container.encode(destination, forKey: .destination)
        case .insert(let items, let destination):
            try container.encode(items, forKey: .items)
            try container.encode(destination, forKey: .destination)
        case .delete(let items):
            try container.encode(items, forKey: .items)
        case .updateItem(let item, let label, let data):
            try container.encode(item, forKey: .item)
            try container.encodeIfPresent(label, forKey: .label)
            switch data {
            case .unchanged: break
            case .replace(let object): try container.encode(object, forKey: .data)
            case .remove: try container.encodeNil(forKey: .data)
            }
        case .updateFolder(let item, let accepts):
            try container.encode(item, forKey: .item)
            try container.encode(accepts, forKey: .accepts)
        case .renameCollection(let collection, let title):
            try container.encode(collection, forKey: .collection)
            try container.encode(title, forKey: .title)
        case .renameBoard(let title):
            try container.encode(title, forKey: .title)
        case .addCollection(let collection, let title, let before):
            try container.encode(CollectionHeader(id: collection, title: title), forKey: .collection)
            try container.encode(before, forKey: .before)
        case .removeCollection(let collection):
            try container.encode(collection, forKey: .collection)
        case .removeCollectionAndItems(let collection):
            try container.encode(collection, forKey: .collection)
            try container.encode(true, forKey: .withItems)
        case .moveCollections(let collections, let before):
            try container.encode(collections, forKey: .collections)
            try container.encode(before, forKey: .before)
        case .lock(let locked):
            try container.encode(locked, forKey: .locked)
        }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let type = try container.decode(String.self, forKey: .type)
        switch type {
        case "move":
            self = .move(
                sources: try container.decode([ItemID].self, forKey: .sources),
                destination: try container.decode(Destination.self, forKey: .destination))
        case "insert":
            self = .insert(
                items: try container.decode([Item].self, forKey: .items),
                destination: try container.decode(Destination.self, forKey: .destination))
        case "delete":
            self = .delete(items: try container.decode([ItemID].self, forKey: .items))
        case "update":
            if container.contains(.accepts) {
                self = .updateFolder(
                    item: try container.decode(ItemID.self, forKey: .item),
                    accepts: try container.decode(Bool.self, forKey: .accepts))
            } else if container.contains(.item) {
                self = .updateItem(
                    item: try container.decode(ItemID.self, forKey: .item),
                    label: try container.decodeIfPresent(String.self, forKey: .label),
                    data: try Self.decodeDataChange(container))
            } else if !container.contains(.collection) {
                self = .renameBoard(title: try container.decode(String.self, forKey: .title))
            } else {
                self = .renameCollection(
                    collection: try container.decode(CollectionID.self, forKey: .collection),
                    title: try container.decode(String.self, forKey: .title))
            }
        case "collection.add":
            let header = try container.decode(CollectionHeader.self, forKey: .collection)
            self = .addCollection(
                collection: header.id, title: header.title,
                before: try container.decodeIfPresent(CollectionID.self, forKey: .before))
        case "collection.remove":
            let collection = try container.decode(CollectionID.self, forKey: .collection)
            let withItems = try container.decodeIfPresent(Bool.self, forKey: .withItems) ?? false
            self = withItems ? .removeCollectionAndItems(collection: collection) : .removeCollection(collection: collection)
        case "collection.move":
            self = .moveCollections(
                collections: try container.decode([CollectionID].self, forKey: .collections),
                before: try container.decodeIfPresent(CollectionID.self, forKey: .before))
        case "lock":
            self = .lock(locked: try container.decode(Bool.self, forKey: .locked))
        default:
            throw DecodingError.dataCorruptedError(
                forKey: .type, in: container, debugDescription: "unknown operation type \(type)")
        }
    }

    /// Absent `data` leaves it, `null` removes it, an object replaces it.
    static func decodeDataChange(_ container: KeyedDecodingContainer<CodingKeys>) throws -> DataChange {
        guard container.contains(.data) else { return .unchanged }
        if try container.decodeNil(forKey: .data) { return .remove }
        return .replace(try container.decode(JSONObject.self, forKey: .data))
    }
}
