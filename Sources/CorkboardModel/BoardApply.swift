/// Applying a resolved operation to a plain ``Board``: what a client replica does with
/// each `committed` event. The server's engine applies the same operations to its
/// indexed form (`IndexedBoard`); the property tests hold the two to the same result.

/// A resolved operation that does not fit the board it is applied to. For a replica
/// this means it is out of step with the server and must fetch a new snapshot.
public struct BoardError: Error, Sendable, Hashable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

extension Board {
    /// Applies a resolved operation, or throws without changing anything.
    public mutating func apply(_ operation: BoardOperation) throws(BoardError) {
        switch operation {
        case .move(let sources, let destination):
            try move(sources, to: destination)
        case .insert(let items, let destination):
            try insert(items, at: destination)
        case .delete(let ids):
            try delete(ids)
        case .updateItem(let id, let label, let data):
            try modifyItem(id) { item in
                if let label { item.label = label }
                switch data {
                case .unchanged: break
                case .replace(let object): item.data = object
                case .remove: item.data = nil
                }
            }
        case .updateFolder(let id, let accepts):
            guard item(id)?.folder != nil else { throw BoardError("no folder \(id)") }
            try modifyItem(id) { $0.folder?.accepts = accepts }
        case .renameCollection(let id, let title):
            guard let index = collectionIndex(of: id) else { throw BoardError("no collection \(id)") }
            collections[index].title = title
        case .renameBoard(let title):
            self.title = title
        case .addCollection(let id, let title, let before):
            guard list(named: id) == nil else { throw BoardError("collection \(id) exists") }
            var position = collections.endIndex
            if let before {
                guard let index = collectionIndex(of: before) else { throw BoardError("no collection \(before)") }
                position = index
            }
            collections.insert(BoardCollection(id: id, title: title), at: position)
        case .removeCollection(let id):
            guard let index = collectionIndex(of: id) else { throw BoardError("no collection \(id)") }
            guard collections[index].items.isEmpty else { throw BoardError("collection \(id) is not empty") }
            collections.remove(at: index)
        case .removeCollectionAndItems(let id):
            guard let index = collectionIndex(of: id) else { throw BoardError("no collection \(id)") }
            // Its items go as a delete takes them: folders with what they hold.
            let held = collections[index].items.map(\.id)
            if !held.isEmpty { try delete(held) }
            collections.remove(at: index)
        case .moveCollections(let sources, let before):
            let (indices, anchor) = try columnMoveIndices(sources, before: before, in: collections.map(\.id))
            collections.moveContiguously(indices, before: anchor)
        case .lock(let locked):
            self.locked = locked
        }
    }

    private mutating func modifyItem(_ id: ItemID, _ change: (inout Item) -> Void) throws(BoardError) {
        guard let (list, index) = location(of: id) else { throw BoardError("no item \(id)") }
        try modifyItems(in: list) { items throws(BoardError) in change(&items[index]) }
    }

    private mutating func move(_ sources: [ItemID], to destination: Destination) throws(BoardError) {
        guard !sources.isEmpty, Set(sources).count == sources.count else { throw BoardError("bad sources") }
        guard let target = list(named: destination.collection) else {
            throw BoardError("no collection \(destination.collection)")
        }
        if let before = destination.before, sources.contains(before) {
            throw BoardError("anchor \(before) is one of the sources")
        }
        let around = Set(enclosingFolders(of: target))
        if let inside = sources.first(where: around.contains) {
            throw BoardError("folder \(inside) would be inside itself")
        }
        var moved: [Item] = []
        var working = self
        for id in sources {
            guard let (list, index) = working.location(of: id) else { throw BoardError("no item \(id)") }
            moved.append(try working.modifyItems(in: list) { items throws(BoardError) in items.remove(at: index) })
        }
        try working.insertContiguously(moved, into: target, before: destination.before)
        self = working
    }

    private mutating func insert(_ items: [Item], at destination: Destination) throws(BoardError) {
        guard let target = list(named: destination.collection) else {
            throw BoardError("no collection \(destination.collection)")
        }
        var seen = Set<ItemID>()
        for item in items where location(of: item.id) != nil || !seen.insert(item.id).inserted {
            throw BoardError("item \(item.id) exists")
        }
        for item in items where item.folder != nil {
            guard list(named: item.id) == nil else { throw BoardError("folder \(item.id) has the id of a list") }
        }
        var working = self
        try working.insertContiguously(items, into: target, before: destination.before)
        // A folder is inserted empty.
        for item in items where item.folder != nil { working.folders[item.id] = [] }
        self = working
    }

    /// Deletes the items and, for a folder, everything inside it.
    private mutating func delete(_ ids: [ItemID]) throws(BoardError) {
        guard Set(ids).count == ids.count else { throw BoardError("duplicate ids") }
        var working = self
        for id in ids {
            // An item inside a folder deleted before it is gone already.
            guard let (list, index) = working.location(of: id) else {
                if item(id) != nil { continue }
                throw BoardError("no item \(id)")
            }
            let removed = try working.modifyItems(in: list) { items throws(BoardError) in items.remove(at: index) }
            for gone in working.subtree(of: removed) where gone.folder != nil { working.folders[gone.id] = nil }
        }
        self = working
    }

    private mutating func insertContiguously(
        _ items: [Item], into list: ListPlace, before anchor: ItemID?
    ) throws(BoardError) {
        let listID = listID(list)
        try modifyItems(in: list) { current throws(BoardError) in
            var position = current.endIndex
            if let anchor {
                guard let index = current.firstIndex(where: { $0.id == anchor }) else {
                    throw BoardError("anchor \(anchor) is not in \(listID)")
                }
                position = index
            }
            current.insert(contentsOf: items, at: position)
        }
    }
}
