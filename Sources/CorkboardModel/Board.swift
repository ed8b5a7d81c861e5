/// The board as docs/protocol.md#1-the-model describes it and as it travels in `welcome`
/// and `GET /api/boards/{id}`: plain values, the same on the server, in snapshots and in
/// every client's replica.

/// One card on a board, or a folder holding other items.
public struct Item: Sendable, Hashable, Codable {
    public var id: ItemID
    public var label: String
    /// Optional JSON object; absent (not `null`) on the wire when there is none.
    public var data: JSONObject?
    /// Present when the item is a folder (docs/model.md "Folders"); its items are
    /// `Board.folders[id]`. Whether an item is a folder is fixed when it is inserted.
    public var folder: Folder?

    public init(id: ItemID, label: String, data: JSONObject? = nil, folder: Folder? = nil) {
        self.id = id
        self.label = label
        self.data = data
        self.folder = folder
    }
}

/// An ordered list of items with a title ("To do", "Done").
///
/// Named ``BoardCollection`` so it does not shadow Swift's `Collection` protocol.
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

/// A board: ordered collections of items, the contents of its folders, and a lock flag.
///
/// `seq` and `epoch` are not part of this value: they describe the board's history,
/// which the engine (seq) and the store (epoch) own.
public struct Board: Sendable, Hashable, Codable {
    public var id: String
    public var title: String
    public var locked: Bool
    /// The columns, in board order.
    public var collections: [BoardCollection]
    /// The items inside each folder, by the folder's item id: one entry per folder on the
    /// board, wherever it is. Unordered (a JSON object), so replicas that built it in a
    /// different order are still equal; absent on the wire when the board has no folder.
    public var folders: [ItemID: [Item]]

    public init(
        id: String, title: String, locked: Bool = false, collections: [BoardCollection] = [],
        folders: [ItemID: [Item]] = [:]
    ) {
        self.id = id
        self.title = title
        self.locked = locked
        self.collections = collections
        self.folders = folders
    }

    private enum CodingKeys: String, CodingKey { case id, title, locked, collections, folders }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        title = try container.decode(String.self, forKey: .title)
        locked = try container.decode(Bool.self, forKey: .locked)
        collections = try container.decode([BoardCollection].self, forKey: .collections)
        // Boards stored before folders have none.
        folders = try container.decodeIfPresent([ItemID: [Item]].self, forKey: .folders) ?? [:]
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(title, forKey: .title)
        try container.encode(locked, forKey: .locked)
        try container.encode(collections, forKey: .collections)
        if !folders.isEmpty { try container.encode(folders, forKey: .folders) }
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
    /// Every item id in board order: column by column, each folder's items right after it.
    public var allItemIDs: [ItemID] {
        var ids: [ItemID] = []
        func add(_ items: [Item], depth: Int) {
            for item in items {
                ids.append(item.id)
                // The depth bound stops a board that holds a folder inside itself.
                if item.folder != nil, depth < Limits.maximumFolderDepth { add(folders[item.id] ?? [], depth: depth + 1) }
            }
        }
        for collection in collections { add(collection.items, depth: 1) }
        return ids
    }

    /// The index of the collection with this id, if there is one.
    public func collectionIndex(of id: CollectionID) -> Int? {
        collections.firstIndex { $0.id == id }
    }

    /// The problems that make this board unusable as a starting snapshot: bad ids or
    /// texts, a collection id used twice, an item id in more than one place, folders that
    /// break docs/model.md "Folders" (docs/protocol.md#1-the-model). Each names where it is, as a path in the board's JSON
    /// (`collections[1].items[3].id: …`), so the culprit is found in a board of thousands.
    ///
    /// `acceptingStoredIDs`: ids need only be well formed
    /// (`Limits.isWellFormedID`), not NFC, as a board stored before 0.24 may have them, and
    /// texts may hold NUL, as before 0.25; every board that enters from outside is held to
    /// `Limits.isValidID` and `Limits.textProblem`.
    public func validationProblems(acceptingStoredIDs: Bool = false) -> [String] {
        let isValidID = acceptingStoredIDs ? Limits.isWellFormedID : Limits.isValidID
        // A board stored before 0.25 (on SQLite) may hold NUL in a text: it still loads.
        let textProblem = { (text: String) in
            acceptingStoredIDs && text.utf8.count <= Limits.maximumTextBytes ? nil : Limits.textProblem(text)
        }
        var problems: [String] = []
        if !isValidID(id) || id.utf8.contains(0) { problems.append("id: board id must be \(Limits.idRule)") }
        if let problem = textProblem(title) { problems.append("title: board title \(problem)") }
        var collectionPaths: [CollectionID: String] = [:]
        var itemPaths: [ItemID: String] = [:]
        func checkItems(_ items: [Item], at path: String) {
            for (itemIndex, item) in items.enumerated() {
                let itemPath = "\(path).items[\(itemIndex)]"
                if !isValidID(item.id) { problems.append("\(itemPath).id: item id \(item.id.debugDescription) must be \(Limits.idRule)") }
                if let problem = textProblem(item.label) { problems.append("\(itemPath).label: label of item \(item.id) \(problem)") }
                if let first = itemPaths[item.id] {
                    problems.append("\(itemPath).id: item id \(item.id) appears twice (first at \(first).id)")
                } else {
                    itemPaths[item.id] = itemPath
                }
            }
        }
        for (collectionIndex, collection) in collections.enumerated() {
            let path = "collections[\(collectionIndex)]"
            if !isValidID(collection.id) { problems.append("\(path).id: collection id \(collection.id.debugDescription) must be \(Limits.idRule)") }
            if let problem = textProblem(collection.title) {
                problems.append("\(path).title: title of collection \(collection.id) \(problem)")
            }
            if let first = collectionPaths[collection.id] {
                problems.append("\(path).id: collection id \(collection.id) appears twice (first at \(first).id)")
            } else {
                collectionPaths[collection.id] = path
            }
            checkItems(collection.items, at: path)
        }
        for (folder, items) in folders.sorted(by: { $0.key < $1.key }) {
            let path = "folders[\(folder.debugDescription)]"
            // Checked as an id, not only looked up: a lookup would find the folder item
            // under another Unicode spelling of its id.
            if !isValidID(folder) { problems.append("\(path): folder id \(folder.debugDescription) must be \(Limits.idRule)") }
            checkItems(items, at: path)
        }
        problems += folderProblems(itemPaths: itemPaths, collectionPaths: collectionPaths)
        return problems
    }

    /// Folders named like a collection, folders' entries that match no folder, folders
    /// inside themselves, and items deeper than `Limits.maximumFolderDepth`.
    private func folderProblems(itemPaths: [ItemID: String], collectionPaths: [CollectionID: String]) -> [String] {
        var problems: [String] = []
        var folderItems: [ItemID: String] = [:]
        for collection in collections { for item in collection.items where item.folder != nil { folderItems[item.id] = itemPaths[item.id] } }
        for (_, items) in folders { for item in items where item.folder != nil { folderItems[item.id] = itemPaths[item.id] } }
        for (folder, path) in folderItems.sorted(by: { $0.key < $1.key }) where collectionPaths[folder] != nil {
            problems.append("\(path).id: folder \(folder) has the id of a collection (\(collectionPaths[folder]!))")
        }
        for folder in folders.keys.sorted() where folderItems[folder] == nil {
            problems.append("folders[\(folder.debugDescription)]: there is no folder item \(folder)")
        }
        // Walk down from the columns: what is never reached sits in a folder inside itself.
        var reached = Set<ItemID>()
        var level = collections.flatMap(\.items)
        var depth = 1
        while !level.isEmpty {
            var next: [Item] = []
            for item in level where reached.insert(item.id).inserted {
                if depth > Limits.maximumFolderDepth {
                    problems.append("\(itemPaths[item.id] ?? item.id): item \(item.id) is deeper than \(Limits.maximumFolderDepth) levels")
                }
                if item.folder != nil { next += folders[item.id] ?? [] }
            }
            level = next
            depth += 1
        }
        for folder in folders.keys.sorted() where folderItems[folder] != nil && !reached.contains(folder) {
            problems.append("folders[\(folder.debugDescription)]: folder \(folder) is inside itself")
        }
        return problems
    }
}
