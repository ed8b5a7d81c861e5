/// The engine's working form of a board, built for resolving many operations a second.
///
/// Items are interned as small integer handles so that a collection's order is an
/// array of `Int32`: finding an item is a scan over a few KiB and moving it is a short
/// `memmove`, with no string comparisons and no reference counting on the hot path.

typealias ItemHandle = Int32

/// A list of items: a column, or a folder's contents (`isFolder`, named by the folder's
/// item id, titled "").
struct IndexedCollection {
    let key: CollectionKey
    var id: CollectionID
    var title: String
    var order: [ItemHandle]
    var isFolder = false
}

struct ItemRecord: HoldingAnItem {
    var item: Item
    var collection: CollectionKey
}

struct IndexedBoard {
    var id: String
    var title: String
    var locked: Bool
    /// The columns in board order, then the folders' lists in no particular order.
    private(set) var collections: [IndexedCollection] = []
    /// How many of `collections` are columns.
    private(set) var columnCount = 0
    private var slots = ItemSlots<ItemRecord>()
    private var indexOfKey: [CollectionKey: Int] = [:]
    private var keyOfID: [CollectionID: CollectionKey] = [:]
    private var nextKey: CollectionKey = 0

    /// Builds the indexed form of a board that passed `Board.validationProblems()`.
    init(_ board: Board) {
        id = board.id
        title = board.title
        locked = board.locked
        var folders: [Item] = []
        func add(_ id: CollectionID, title: String, items: [Item], isFolder: Bool) {
            let key = makeKey()
            var order: [ItemHandle] = []
            order.reserveCapacity(items.count)
            for item in items {
                order.append(allocate(item, in: key))
                if item.folder != nil { folders.append(item) }
            }
            collections.append(IndexedCollection(key: key, id: id, title: title, order: order, isFolder: isFolder))
        }
        for collection in board.collections {
            add(collection.id, title: collection.title, items: collection.items, isFolder: false)
        }
        columnCount = collections.count
        var next = 0
        while next < folders.count {
            add(folders[next].id, title: "", items: board.folders[folders[next].id] ?? [], isFolder: true)
            next += 1
        }
        reindexCollections()
    }

    /// The plain board, for snapshots and for comparing with replicas.
    var board: Board {
        Board(
            id: id, title: title, locked: locked,
            collections: collections[..<columnCount].map { collection in
                BoardCollection(id: collection.id, title: collection.title, items: items(of: collection))
            },
            folders: Dictionary(uniqueKeysWithValues: collections[columnCount...].map { ($0.id, items(of: $0)) }))
    }

    private func items(of collection: IndexedCollection) -> [Item] {
        collection.order.map { slots[$0].item }
    }

    /// The columns only, in board order.
    var columns: ArraySlice<IndexedCollection> { collections[..<columnCount] }

    var itemCount: Int { slots.count }

    // MARK: Lookups

    func handle(of item: ItemID) -> ItemHandle? { slots.handle(of: item) }

    func contains(_ item: ItemID) -> Bool { slots.handle(of: item) != nil }

    func record(_ handle: ItemHandle) -> ItemRecord { slots[handle] }

    func itemID(_ handle: ItemHandle) -> ItemID { slots[handle].item.id }

    func collectionIndex(of id: CollectionID) -> Int? {
        keyOfID[id].flatMap { indexOfKey[$0] }
    }

    func collectionIndex(ofKey key: CollectionKey) -> Int? { indexOfKey[key] }

    func key(of id: CollectionID) -> CollectionKey? { keyOfID[id] }

    /// The folder whose list this is, nil for a column.
    func folder(ofList index: Int) -> ItemHandle? {
        collections[index].isFolder ? slots.handle(of: collections[index].id) : nil
    }

    /// The folders around the list at `index`, innermost first: none for a column, else the
    /// list's own folder and every folder that holds it.
    func enclosingFolders(ofList index: Int) -> [ItemHandle] {
        var chain: [ItemHandle] = []
        var list = index
        while let folder = folder(ofList: list) {
            chain.append(folder)
            list = indexOfKey[slots[folder].collection]!
        }
        return chain
    }

    /// The items inside a folder, at every depth, and how many levels deep they go
    /// (0 for a card or an empty folder).
    func contents(of handle: ItemHandle) -> (items: [ItemHandle], levels: Int) {
        var found: [ItemHandle] = []
        var level = [handle]
        var levels = -1
        while !level.isEmpty {
            levels += 1
            var next: [ItemHandle] = []
            for item in level where slots[item].item.folder != nil {
                next += collections[indexOfKey[keyOfID[slots[item].item.id]!]!].order
            }
            found += next
            level = next
        }
        return (found, levels)
    }

    /// Where the item is now.
    func position(of handle: ItemHandle) -> Position {
        let key = slots[handle].collection
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
            guard let handle = slots.handle(of: itemID) else { throw BoardError("no item \(itemID)") }
            let previous = slots[handle].item
            if let label { slots[handle].item.label = label }
            switch data {
            case .unchanged: break
            case .replace(let object): slots[handle].item.data = object
            case .remove: slots[handle].item.data = nil
            }
            return .updateItem(previousLabel: previous.label, previousData: previous.data)
        case .updateFolder(let itemID, let accepts):
            guard let handle = slots.handle(of: itemID), let previous = slots[handle].item.folder?.accepts else {
                throw BoardError("no folder \(itemID)")
            }
            slots[handle].item.folder!.accepts = accepts
            return .updateFolder(previousAccepts: previous)
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
            var index = columnCount
            if let before {
                // A folder's list is no column to stand before (the lists after the columns are folders').
                guard let anchor = collectionIndex(of: before), anchor < columnCount else { throw BoardError("no collection \(before)") }
                index = anchor
            }
            let key = makeKey()
            collections.insert(IndexedCollection(key: key, id: collectionID, title: newTitle, order: []), at: index)
            columnCount += 1
            reindexCollections()
            return .addCollection(key: key, index: index)
        case .removeCollection(let collectionID):
            guard let index = collectionIndex(of: collectionID), index < columnCount else {
                throw BoardError("no collection \(collectionID)")
            }
            guard collections[index].order.isEmpty else { throw BoardError("collection \(collectionID) is not empty") }
            return removeColumn(at: index, removed: [], removedLists: [])
        case .removeCollectionAndItems(let collectionID):
            guard let index = collectionIndex(of: collectionID), index < columnCount else {
                throw BoardError("no collection \(collectionID)")
            }
            // What it holds goes as a delete of its items would take them (folders' contents too).
            let held = collections[index].order.map(itemID)
            guard !held.isEmpty, case .delete(let removed, let removedLists) = try delete(held) else {
                return removeColumn(at: index, removed: [], removedLists: [])
            }
            return removeColumn(at: collectionIndex(of: collectionID)!, removed: removed, removedLists: removedLists)
        case .moveCollections(let sources, let before):
            // The columns are the first `columnCount` lists, so moving among them leaves the
            // folders' lists where they are.
            let (from, anchor) = try columnMoveIndices(sources, before: before, in: columns.map(\.id))
            // The end of the columns is where the folders' lists begin, not the array's end.
            let insertionIndex = collections.moveContiguously(from, before: anchor ?? columnCount)
            reindexCollections()
            return .moveCollections(from: from, insertionIndex: insertionIndex)
        case .lock(let newValue):
            let previous = locked
            locked = newValue
            return .lock(previous: previous)
        }
    }

    /// Removes the (now empty) column at `index`; `removed` and `removedLists` are what went
    /// with it, for undoing.
    private mutating func removeColumn(at index: Int, removed: [RemovedItem], removedLists: [RemovedList]) -> Effect {
        let column = collections.remove(at: index)
        columnCount -= 1
        reindexCollections()
        return .removeCollection(key: column.key, index: index, title: column.title, removed: removed, removedLists: removedLists)
    }

    private mutating func move(_ sources: [ItemID], to destination: Destination) throws(BoardError) -> Effect {
        guard !sources.isEmpty else { throw BoardError("a move needs sources") }
        guard let target = collectionIndex(of: destination.collection) else {
            throw BoardError("no collection \(destination.collection)")
        }
        var moving: [ItemHandle] = []
        moving.reserveCapacity(sources.count)
        for source in sources {
            guard let handle = slots.handle(of: source) else { throw BoardError("no item \(source)") }
            guard !moving.contains(handle) else { throw BoardError("item \(source) is named twice") }
            moving.append(handle)
        }
        var anchor: ItemHandle?
        if let before = destination.before {
            guard let handle = slots.handle(of: before), slots[handle].collection == collections[target].key,
                !moving.contains(handle)
            else { throw BoardError("anchor \(before) is not a non-source item of \(destination.collection)") }
            anchor = handle
        }
        if let inside = enclosingFolders(ofList: target).first(where: moving.contains) {
            throw BoardError("folder \(itemID(inside)) would be inside itself")
        }
        // All positions are read before anything moves: they describe the board before.
        let from = moving.map(position(of:))
        removeItems(at: from)
        let destinationKey = collections[target].key
        let insertionIndex = anchor.map { collections[target].order.firstIndex(of: $0)! } ?? collections[target].order.count
        collections[target].order.insert(contentsOf: moving, at: insertionIndex)
        for handle in moving { slots[handle].collection = destinationKey }
        return .move(from: from, destination: destinationKey, insertionIndex: insertionIndex)
    }

    private mutating func insert(_ items: [Item], at destination: Destination) throws(BoardError) -> Effect {
        guard let target = collectionIndex(of: destination.collection) else {
            throw BoardError("no collection \(destination.collection)")
        }
        var newIDs = Set<ItemID>()
        for item in items where slots.handle(of: item.id) != nil || !newIDs.insert(item.id).inserted {
            throw BoardError("item \(item.id) exists")
        }
        for item in items where item.folder != nil && keyOfID[item.id] != nil {
            throw BoardError("folder \(item.id) has the id of a list")
        }
        let key = collections[target].key
        var insertionIndex = collections[target].order.count
        if let before = destination.before {
            guard let handle = slots.handle(of: before), slots[handle].collection == key else {
                throw BoardError("anchor \(before) is not in \(destination.collection)")
            }
            insertionIndex = collections[target].order.firstIndex(of: handle)!
        }
        let added = items.map { allocate($0, in: key) }
        collections[target].order.insert(contentsOf: added, at: insertionIndex)
        // A folder is inserted empty.
        var created: [CollectionKey] = []
        for item in items where item.folder != nil {
            created.append(makeKey())
            collections.append(IndexedCollection(key: created.last!, id: item.id, title: "", order: [], isFolder: true))
        }
        if !created.isEmpty { reindexCollections() }
        return .insert(destination: key, insertionIndex: insertionIndex, count: items.count, createdLists: created)
    }

    private mutating func delete(_ ids: [ItemID]) throws(BoardError) -> Effect {
        var doomed: [ItemHandle] = []
        for itemID in ids {
            guard let handle = slots.handle(of: itemID) else { throw BoardError("no item \(itemID)") }
            guard !doomed.contains(handle) else { throw BoardError("item \(itemID) is named twice") }
            doomed.append(handle)
        }
        // What is inside the folders goes with them (once, if it was named too).
        var named = Set(doomed)
        for handle in doomed where slots[handle].item.folder != nil {
            for inside in contents(of: handle).items where named.insert(inside).inserted { doomed.append(inside) }
        }
        let positions = doomed.map(position(of:))
        let removed = zip(doomed, positions).map { RemovedItem(item: slots[$0].item, position: $1) }
        removeItems(at: positions)
        var removedLists: [RemovedList] = []
        for handle in doomed where slots[handle].item.folder != nil {
            let folderID = slots[handle].item.id
            removedLists.append(RemovedList(key: keyOfID[folderID]!, id: folderID))
        }
        if !removedLists.isEmpty {
            let gone = Set(removedLists.map(\.key))
            collections.removeAll { gone.contains($0.key) }
            reindexCollections()
        }
        for handle in doomed { slots.free(handle) }
        return .delete(removed: removed, removedLists: removedLists)
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
                slots[handle].collection = position.key
            }
        case (.insert(let destination, let insertionIndex, let count, let createdLists), _):
            let target = indexOfKey[destination]!
            let added = Array(collections[target].order[insertionIndex..<insertionIndex + count])
            collections[target].order.removeSubrange(insertionIndex..<insertionIndex + count)
            for handle in added { slots.free(handle) }
            if !createdLists.isEmpty {
                collections.removeAll { createdLists.contains($0.key) }
                reindexCollections()
            }
        case (.delete(let removed, let removedLists), _):
            restore(removed, lists: removedLists)
        case (.updateItem(let previousLabel, let previousData), .updateItem(let itemID, _, _)):
            let handle = slots.handle(of: itemID)!
            slots[handle].item.label = previousLabel
            slots[handle].item.data = previousData
        case (.updateFolder(let previousAccepts), .updateFolder(let itemID, _)):
            slots[slots.handle(of: itemID)!].item.folder!.accepts = previousAccepts
        case (.renameCollection(let key, let previousTitle), _):
            collections[indexOfKey[key]!].title = previousTitle
        case (.renameBoard(let previousTitle), _):
            title = previousTitle
        case (.addCollection(_, let index), _):
            collections.remove(at: index)
            columnCount -= 1
            reindexCollections()
        case (.removeCollection(let key, let index, let title, let removed, let removedLists), let op):
            collections.insert(IndexedCollection(key: key, id: op.removedCollection!, title: title, order: []), at: index)
            columnCount += 1
            reindexCollections()
            restore(removed, lists: removedLists)
        case (.moveCollections(let from, let insertionIndex), _):
            collections.unmoveContiguously(from: from, insertionIndex: insertionIndex)
            reindexCollections()
        case (.lock(let previous), _):
            locked = previous
        default:
            preconditionFailure("history entry \(entry.event.seq) pairs an effect with the wrong operation")
        }
    }

    /// Puts back what a delete (or a column's removal with its items) took: the folders' lists,
    /// then each item at its recorded index.
    private mutating func restore(_ removed: [RemovedItem], lists removedLists: [RemovedList]) {
        for list in removedLists {
            collections.append(IndexedCollection(key: list.key, id: list.id, title: "", order: [], isFolder: true))
        }
        if !removedLists.isEmpty { reindexCollections() }
        for entry in removed.sorted(by: { $0.position.index < $1.position.index }) {
            let handle = allocate(entry.item, in: entry.position.key)
            collections[indexOfKey[entry.position.key]!].order.insert(handle, at: entry.position.index)
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
        slots.allocate(ItemRecord(item: item, collection: key))
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
