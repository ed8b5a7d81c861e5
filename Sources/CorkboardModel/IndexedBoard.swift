/// The engine's working form of a board, built for resolving many operations a second.
///
/// Items are interned as small integer handles so that a collection's order is an
/// array of `Int32`: finding an item is a scan over a few KiB and moving it is a short
/// `memmove`, with no string comparisons and no reference counting on the hot path.

typealias ItemHandle = Int32

struct IndexedCollection {
    let key: CollectionKey
    var id: CollectionID
    var title: String
    var order: [ItemHandle]
}

struct ItemRecord {
    var item: Item
    var collection: CollectionKey
}

struct IndexedBoard {
    var id: String
    var title: String
    var locked: Bool
    private(set) var collections: [IndexedCollection] = []
    /// Indexed by handle; nil for a free handle.
    private var records: [ItemRecord?] = []
    private var handles: [ItemID: ItemHandle] = [:]
    private var freeHandles: [ItemHandle] = []
    private var indexOfKey: [CollectionKey: Int] = [:]
    private var keyOfID: [CollectionID: CollectionKey] = [:]
    private var nextKey: CollectionKey = 0

    /// Builds the indexed form of a board that passed `Board.validationProblems()`.
    init(_ board: Board) {
        id = board.id
        title = board.title
        locked = board.locked
        for collection in board.collections {
            let key = makeKey()
            var order: [ItemHandle] = []
            order.reserveCapacity(collection.items.count)
            for item in collection.items {
                order.append(allocate(item, in: key))
            }
            collections.append(IndexedCollection(key: key, id: collection.id, title: collection.title, order: order))
        }
        reindexCollections()
    }

    /// The plain board, for snapshots and for comparing with replicas.
    var board: Board {
        Board(
            id: id, title: title, locked: locked,
            collections: collections.map { collection in
                BoardCollection(
                    id: collection.id, title: collection.title,
                    items: collection.order.map { records[Int($0)]!.item })
            })
    }

    var itemCount: Int { handles.count }

    // MARK: Lookups

    func handle(of item: ItemID) -> ItemHandle? { handles[item] }

    func contains(_ item: ItemID) -> Bool { handles[item] != nil }

    func record(_ handle: ItemHandle) -> ItemRecord { records[Int(handle)]! }

    func itemID(_ handle: ItemHandle) -> ItemID { records[Int(handle)]!.item.id }

    func collectionIndex(of id: CollectionID) -> Int? {
        keyOfID[id].flatMap { indexOfKey[$0] }
    }

    func collectionIndex(ofKey key: CollectionKey) -> Int? { indexOfKey[key] }

    func key(of id: CollectionID) -> CollectionKey? { keyOfID[id] }

    /// Where the item is now.
    func position(of handle: ItemHandle) -> Position {
        let key = records[Int(handle)]!.collection
        let index = collections[indexOfKey[key]!].order.firstIndex(of: handle)!
        return Position(key: key, index: index)
    }

    // MARK: Applying resolved operations

    /// Applies a resolved operation and returns what it did, or throws and changes
    /// nothing. The same rules as `Board.apply`, on the indexed form.
    mutating func apply(_ operation: BoardOperation) throws(BoardError) -> Effect {
        switch operation {
        case .move(let sources, let destination):
            return try move(sources, to: destination)
        case .insert(let items, let destination):
            return try insert(items, at: destination)
        case .delete(let ids):
            return try delete(ids)
        case .updateItem(let itemID, let label, let data):
            guard let handle = handles[itemID] else { throw BoardError("no item \(itemID)") }
            let previous = records[Int(handle)]!.item
            if let label { records[Int(handle)]!.item.label = label }
            switch data {
            case .unchanged: break
            case .replace(let object): records[Int(handle)]!.item.data = object
            case .remove: records[Int(handle)]!.item.data = nil
            }
            return .updateItem(previousLabel: previous.label, previousData: previous.data)
        case .renameCollection(let collectionID, let newTitle):
            guard let index = collectionIndex(of: collectionID) else { throw BoardError("no collection \(collectionID)") }
            let previous = collections[index].title
            collections[index].title = newTitle
            return .renameCollection(key: collections[index].key, previousTitle: previous)
        case .renameBoard(let newTitle):
            let previous = title
            title = newTitle
            return .renameBoard(previousTitle: previous)
        case .addCollection(let collectionID, let newTitle, let before):
            guard keyOfID[collectionID] == nil else { throw BoardError("collection \(collectionID) exists") }
            var index = collections.endIndex
            if let before {
                guard let anchor = collectionIndex(of: before) else { throw BoardError("no collection \(before)") }
                index = anchor
            }
            let key = makeKey()
            collections.insert(IndexedCollection(key: key, id: collectionID, title: newTitle, order: []), at: index)
            reindexCollections()
            return .addCollection(key: key, index: index)
        case .removeCollection(let collectionID):
            guard let index = collectionIndex(of: collectionID) else { throw BoardError("no collection \(collectionID)") }
            guard collections[index].order.isEmpty else { throw BoardError("collection \(collectionID) is not empty") }
            let removed = collections.remove(at: index)
            reindexCollections()
            return .removeCollection(key: removed.key, index: index, title: removed.title)
        case .lock(let newValue):
            let previous = locked
            locked = newValue
            return .lock(previous: previous)
        }
    }

    private mutating func move(_ sources: [ItemID], to destination: Destination) throws(BoardError) -> Effect {
        guard !sources.isEmpty else { throw BoardError("a move needs sources") }
        guard let target = collectionIndex(of: destination.collection) else {
            throw BoardError("no collection \(destination.collection)")
        }
        var moving: [ItemHandle] = []
        moving.reserveCapacity(sources.count)
        for source in sources {
            guard let handle = handles[source] else { throw BoardError("no item \(source)") }
            guard !moving.contains(handle) else { throw BoardError("item \(source) is named twice") }
            moving.append(handle)
        }
        var anchor: ItemHandle?
        if let before = destination.before {
            guard let handle = handles[before], records[Int(handle)]!.collection == collections[target].key,
                !moving.contains(handle)
            else { throw BoardError("anchor \(before) is not a non-source item of \(destination.collection)") }
            anchor = handle
        }
        // All positions are read before anything moves: they describe the board before.
        let from = moving.map(position(of:))
        removeItems(at: from)
        let destinationKey = collections[target].key
        let insertionIndex = anchor.map { collections[target].order.firstIndex(of: $0)! } ?? collections[target].order.count
        collections[target].order.insert(contentsOf: moving, at: insertionIndex)
        for handle in moving { records[Int(handle)]!.collection = destinationKey }
        return .move(from: from, destination: destinationKey, insertionIndex: insertionIndex)
    }

    private mutating func insert(_ items: [Item], at destination: Destination) throws(BoardError) -> Effect {
        guard let target = collectionIndex(of: destination.collection) else {
            throw BoardError("no collection \(destination.collection)")
        }
        var newIDs = Set<ItemID>()
        for item in items where handles[item.id] != nil || !newIDs.insert(item.id).inserted {
            throw BoardError("item \(item.id) exists")
        }
        let key = collections[target].key
        var insertionIndex = collections[target].order.count
        if let before = destination.before {
            guard let handle = handles[before], records[Int(handle)]!.collection == key else {
                throw BoardError("anchor \(before) is not in \(destination.collection)")
            }
            insertionIndex = collections[target].order.firstIndex(of: handle)!
        }
        let added = items.map { allocate($0, in: key) }
        collections[target].order.insert(contentsOf: added, at: insertionIndex)
        return .insert(destination: key, insertionIndex: insertionIndex, count: items.count)
    }

    private mutating func delete(_ ids: [ItemID]) throws(BoardError) -> Effect {
        var doomed: [ItemHandle] = []
        for itemID in ids {
            guard let handle = handles[itemID] else { throw BoardError("no item \(itemID)") }
            guard !doomed.contains(handle) else { throw BoardError("item \(itemID) is named twice") }
            doomed.append(handle)
        }
        let positions = doomed.map(position(of:))
        let removed = zip(doomed, positions).map { RemovedItem(item: records[Int($0)]!.item, position: $1) }
        removeItems(at: positions)
        for handle in doomed { free(handle) }
        return .delete(removed: removed)
    }

    // MARK: Undoing

    /// Reverses `entry`, which must be the last operation applied to this board.
    mutating func undo(_ entry: HistoryEntry) {
        switch (entry.effect, entry.event.op) {
        case (.move(let from, let destination, let insertionIndex), .move(let sources, _)):
            let target = indexOfKey[destination]!
            let moving = Array(collections[target].order[insertionIndex..<insertionIndex + sources.count])
            collections[target].order.removeSubrange(insertionIndex..<insertionIndex + sources.count)
            // Ascending order per list puts every item back at its recorded index.
            for (handle, position) in zip(moving, from).sorted(by: { $0.1.index < $1.1.index }) {
                collections[indexOfKey[position.key]!].order.insert(handle, at: position.index)
                records[Int(handle)]!.collection = position.key
            }
        case (.insert(let destination, let insertionIndex, let count), _):
            let target = indexOfKey[destination]!
            let added = Array(collections[target].order[insertionIndex..<insertionIndex + count])
            collections[target].order.removeSubrange(insertionIndex..<insertionIndex + count)
            for handle in added { free(handle) }
        case (.delete(let removed), _):
            for entry in removed.sorted(by: { $0.position.index < $1.position.index }) {
                let handle = allocate(entry.item, in: entry.position.key)
                collections[indexOfKey[entry.position.key]!].order.insert(handle, at: entry.position.index)
            }
        case (.updateItem(let previousLabel, let previousData), .updateItem(let itemID, _, _)):
            let handle = Int(handles[itemID]!)
            records[handle]!.item.label = previousLabel
            records[handle]!.item.data = previousData
        case (.renameCollection(let key, let previousTitle), _):
            collections[indexOfKey[key]!].title = previousTitle
        case (.renameBoard(let previousTitle), _):
            title = previousTitle
        case (.addCollection(_, let index), _):
            collections.remove(at: index)
            reindexCollections()
        case (.removeCollection(let key, let index, let title), .removeCollection(let collectionID)):
            collections.insert(IndexedCollection(key: key, id: collectionID, title: title, order: []), at: index)
            reindexCollections()
        case (.lock(let previous), _):
            locked = previous
        default:
            preconditionFailure("history entry \(entry.event.seq) pairs an effect with the wrong operation")
        }
    }

    // MARK: Storage

    /// Removes the items at these positions (all read before any removal).
    private mutating func removeItems(at positions: [Position]) {
        if positions.count == 1 {
            collections[indexOfKey[positions[0].key]!].order.remove(at: positions[0].index)
            return
        }
        // Highest index first, so earlier removals do not shift later ones.
        for position in positions.sorted(by: { $0.index > $1.index }) {
            collections[indexOfKey[position.key]!].order.remove(at: position.index)
        }
    }

    private mutating func allocate(_ item: Item, in key: CollectionKey) -> ItemHandle {
        let record = ItemRecord(item: item, collection: key)
        let handle: ItemHandle
        if let reused = freeHandles.popLast() {
            handle = reused
            records[Int(handle)] = record
        } else {
            handle = ItemHandle(records.count)
            records.append(record)
        }
        handles[item.id] = handle
        return handle
    }

    private mutating func free(_ handle: ItemHandle) {
        handles[records[Int(handle)]!.item.id] = nil
        records[Int(handle)] = nil
        freeHandles.append(handle)
    }

    private mutating func makeKey() -> CollectionKey {
        defer { nextKey += 1 }
        return nextKey
    }

    /// Collections are few and rarely added or removed, so the maps are rebuilt whole.
    private mutating func reindexCollections() {
        indexOfKey = Dictionary(uniqueKeysWithValues: collections.enumerated().map { ($1.key, $0) })
        keyOfID = Dictionary(uniqueKeysWithValues: collections.map { ($0.id, $0.key) })
    }
}
