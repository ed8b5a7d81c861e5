/// Applying a resolved operation to a plain `Board`: what a client replica does with
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
            guard let (collection, index) = location(of: id) else { throw BoardError("no item \(id)") }
            if let label { collections[collection].items[index].label = label }
            switch data {
            case .unchanged: break
            case .replace(let object): collections[collection].items[index].data = object
            case .remove: collections[collection].items[index].data = nil
            }
        case .renameCollection(let id, let title):
            guard let index = collectionIndex(of: id) else { throw BoardError("no collection \(id)") }
            collections[index].title = title
        case .renameBoard(let title):
            self.title = title
        case .addCollection(let id, let title, let before):
            guard collectionIndex(of: id) == nil else { throw BoardError("collection \(id) exists") }
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
        case .lock(let locked):
            self.locked = locked
        }
    }

    private mutating func move(_ sources: [ItemID], to destination: Destination) throws(BoardError) {
        guard !sources.isEmpty, Set(sources).count == sources.count else { throw BoardError("bad sources") }
        guard let target = collectionIndex(of: destination.collection) else {
            throw BoardError("no collection \(destination.collection)")
        }
        if let before = destination.before, sources.contains(before) {
            throw BoardError("anchor \(before) is one of the sources")
        }
        var moved: [Item] = []
        var working = self
        for id in sources {
            guard let (collection, index) = working.location(of: id) else { throw BoardError("no item \(id)") }
            moved.append(working.collections[collection].items.remove(at: index))
        }
        try working.insertContiguously(moved, into: target, before: destination.before)
        self = working
    }

    private mutating func insert(_ items: [Item], at destination: Destination) throws(BoardError) {
        guard let target = collectionIndex(of: destination.collection) else {
            throw BoardError("no collection \(destination.collection)")
        }
        var seen = Set<ItemID>()
        for item in items where location(of: item.id) != nil || !seen.insert(item.id).inserted {
            throw BoardError("item \(item.id) exists")
        }
        try insertContiguously(items, into: target, before: destination.before)
    }

    private mutating func delete(_ ids: [ItemID]) throws(BoardError) {
        guard Set(ids).count == ids.count else { throw BoardError("duplicate ids") }
        var working = self
        for id in ids {
            guard let (collection, index) = working.location(of: id) else { throw BoardError("no item \(id)") }
            working.collections[collection].items.remove(at: index)
        }
        self = working
    }

    private mutating func insertContiguously(
        _ items: [Item], into collection: Int, before anchor: ItemID?
    ) throws(BoardError) {
        var position = collections[collection].items.endIndex
        if let anchor {
            guard let index = collections[collection].items.firstIndex(where: { $0.id == anchor }) else {
                throw BoardError("anchor \(anchor) is not in \(collections[collection].id)")
            }
            position = index
        }
        collections[collection].items.insert(contentsOf: items, at: position)
    }
}
