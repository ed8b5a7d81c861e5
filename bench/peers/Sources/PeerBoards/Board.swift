/// The board state both Swift peers keep: the subset of Corkboard's model the peers
/// need (ids, titles, labels, order). Codable, so a board is read from `POST /api/boards`
/// and written into `welcome` with the same types.
public struct Item: Codable, Sendable, Equatable {
    public var id: String
    public var label: String
}

public struct Collection: Codable, Sendable, Equatable {
    public var id: String
    public var title: String
    public var items: [Item]
}

public struct Board: Codable, Sendable, Equatable {
    public var id: String
    public var title: String
    public var locked: Bool
    public var collections: [Collection]

    private enum CodingKeys: String, CodingKey { case id, title, locked, collections }

    public init(id: String, title: String, locked: Bool = false, collections: [Collection]) {
        self.id = id
        self.title = title
        self.locked = locked
        self.collections = collections
    }

    // `locked` is optional in a new board's body (false by default).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        title = try container.decode(String.self, forKey: .title)
        locked = try container.decodeIfPresent(Bool.self, forKey: .locked) ?? false
        collections = try container.decode([Collection].self, forKey: .collections)
    }

    /// What is wrong with the board, or nil: ids are non-empty strings of at most 128 bytes,
    /// no collection id twice, and every item id in exactly one place.
    public func problem() -> String? {
        func badID(_ id: String) -> Bool { id.isEmpty || id.utf8.count > 128 }
        if badID(id) { return "the board id must be 1 to 128 bytes" }
        var collectionIDs = Set<String>()
        var itemIDs = Set<String>()
        for collection in collections {
            if badID(collection.id) { return "collection ids must be 1 to 128 bytes" }
            if !collectionIDs.insert(collection.id).inserted { return "collection \"\(collection.id)\" appears twice" }
            for item in collection.items {
                if badID(item.id) { return "item ids must be 1 to 128 bytes" }
                if !itemIDs.insert(item.id).inserted { return "item \"\(item.id)\" appears twice" }
            }
        }
        return nil
    }
}
