/// The board as docs/protocol.md#1-the-model describes it and as it travels in `welcome`
/// and `GET /api/boards/{id}`: plain values, the same on the server, in snapshots and in
/// every client's replica.

/// One card on a board.
public struct Item: Sendable, Hashable, Codable {
    public var id: ItemID
    public var label: String
    /// Optional JSON object; absent (not `null`) on the wire when there is none.
    public var data: JSONObject?

    public init(id: ItemID, label: String, data: JSONObject? = nil) {
        self.id = id
        self.label = label
        self.data = data
    }
}

/// An ordered list of items with a title ("To do", "Done").
///
/// Named `BoardCollection` so it does not shadow Swift's `Collection` protocol.
public struct BoardCollection: Sendable, Hashable, Codable {
    public var id: CollectionID
    public var title: String
    public var items: [Item]

    public init(id: CollectionID, title: String, items: [Item] = []) {
        self.id = id
        self.title = title
        self.items = items
    }
}

/// A board: ordered collections of items, and a lock flag.
///
/// `seq` and `epoch` are not part of this value: they describe the board's history,
/// which the engine (seq) and the store (epoch) own.
public struct Board: Sendable, Hashable, Codable {
    public var id: String
    public var title: String
    public var locked: Bool
    public var collections: [BoardCollection]

    public init(id: String, title: String, locked: Bool = false, collections: [BoardCollection] = []) {
        self.id = id
        self.title = title
        self.locked = locked
        self.collections = collections
    }
}

/// A board in a list: what the store lists and `GET /api/boards` shows.
public struct BoardSummary: Sendable, Hashable, Codable {
    public var id: String
    public var title: String
    /// The seq of the last durable event.
    public var seq: Int

    public init(id: String, title: String, seq: Int) {
        self.id = id
        self.title = title
        self.seq = seq
    }
}

extension Board {
    /// Every item id in board order, collection by collection.
    public var allItemIDs: [ItemID] {
        collections.flatMap { $0.items.map(\.id) }
    }

    /// The index of the collection with this id, if there is one.
    public func collectionIndex(of id: CollectionID) -> Int? {
        collections.firstIndex { $0.id == id }
    }

    /// Where the item is: (collection index, item index), if it is on the board.
    public func location(of item: ItemID) -> (collection: Int, index: Int)? {
        for (collectionIndex, collection) in collections.enumerated() {
            if let index = collection.items.firstIndex(where: { $0.id == item }) {
                return (collectionIndex, index)
            }
        }
        return nil
    }

    /// The problems that make this board unusable as a starting snapshot: bad ids or
    /// texts, a collection id used twice, an item id in more than one place
    /// (docs/protocol.md#1-the-model). Each names where it is, as a path in the board's JSON
    /// (`collections[1].items[3].id: …`), so the culprit is found in a board of thousands.
    public func validationProblems() -> [String] {
        var problems: [String] = []
        if !Limits.isValidBoardID(id) { problems.append("id: board id must be 1…128 bytes, without NUL") }
        if !Limits.isValidText(title) { problems.append("title: board title is too long") }
        var collectionPaths: [CollectionID: String] = [:]
        var itemPaths: [ItemID: String] = [:]
        for (collectionIndex, collection) in collections.enumerated() {
            let path = "collections[\(collectionIndex)]"
            if !Limits.isValidID(collection.id) { problems.append("\(path).id: collection id \(collection.id.debugDescription) must be 1…128 bytes") }
            if !Limits.isValidText(collection.title) { problems.append("\(path).title: title of collection \(collection.id) is too long") }
            if let first = collectionPaths[collection.id] {
                problems.append("\(path).id: collection id \(collection.id) appears twice (first at \(first).id)")
            } else {
                collectionPaths[collection.id] = path
            }
            for (itemIndex, item) in collection.items.enumerated() {
                let itemPath = "\(path).items[\(itemIndex)]"
                if !Limits.isValidID(item.id) { problems.append("\(itemPath).id: item id \(item.id.debugDescription) must be 1…128 bytes") }
                if !Limits.isValidText(item.label) { problems.append("\(itemPath).label: label of item \(item.id) is too long") }
                if let first = itemPaths[item.id] {
                    problems.append("\(itemPath).id: item id \(item.id) appears twice (first at \(first).id)")
                } else {
                    itemPaths[item.id] = itemPath
                }
            }
        }
        return problems
    }
}
