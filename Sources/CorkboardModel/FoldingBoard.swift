/// A board for folding a log into a snapshot: resolved operations applied with exactly
/// `Board.apply`'s rules and results, each in time proportional to the operation (the items
/// it names, or the contents of the folders it deletes), whatever the board's size.
///
/// Why not `Board.apply`: it finds each item it names by scanning the lists, so a move of a
/// whole column of n cards costs n² id comparisons; folding a 10,000-card board's column
/// reversals took seconds per event, inside the store's shared write (issue #31). Why not the
/// engine's `IndexedBoard`: it keeps each list as an array because the resolver and undo need
/// every item's index, and finding and removing k items of a list of n still costs k × n. A
/// fold needs no index, only the order at the end. So each list here is a doubly linked list
/// of item handles: an item is found through a dictionary, unlinked and linked in constant
/// time, and the lists are walked once, when `board` is read.
///
/// Like `Board.apply`, `apply` throws without changing anything: every check is made before
/// the first change.
public struct FoldingBoard: Sendable {
    private typealias Handle = ItemHandle
    private typealias ListKey = Int

    private struct Node: Sendable, HoldingAnItem {
        var item: Item
        var list: ListKey
        var previous: Handle
        var next: Handle
    }

    /// One list: a column's items or a folder's (`folder` is then the folder's id).
    private struct Chain: Sendable {
        var folder: ItemID?
        var first: Handle = noHandle
        var last: Handle = noHandle
    }

    private struct Column: Sendable {
        var id: CollectionID
        var title: String
        var list: ListKey
    }

    private static let noHandle: Handle = -1

    private var id: String
    private var title: String
    private var locked: Bool
    /// In board order.
    private var columns: [Column] = []
    /// The list of each folder `Board.folders` has an entry for.
    private var folderLists: [ItemID: ListKey] = [:]
    /// By list key; a removed list's chain stays, unused (lists are few).
    private var chains: [Chain] = []
    private var nodes = ItemSlots<Node>()

    public init(_ board: Board) {
        id = board.id
        title = board.title
        locked = board.locked
        for collection in board.collections {
            let list = makeList(folder: nil)
            columns.append(Column(id: collection.id, title: collection.title, list: list))
            for item in collection.items { link(allocate(item), into: list, before: nil) }
        }
        for (folder, items) in board.folders {
            let list = makeList(folder: folder)
            folderLists[folder] = list
            for item in items { link(allocate(item), into: list, before: nil) }
        }
    }

    /// The plain board: what `Board.apply` would have made of the same operations.
    public var board: Board {
        Board(
            id: id, title: title, locked: locked,
            collections: columns.map { BoardCollection(id: $0.id, title: $0.title, items: items(of: $0.list)) },
            folders: folderLists.mapValues(items(of:)))
    }

    /// Applies a resolved operation, or throws without changing anything (`Board.apply`'s rules).
    public mutating func apply(_ operation: BoardOperation) throws(BoardError) {
        switch operation {
        case .move(let sources, let destination):
            try move(sources, to: destination)
        case .insert(let items, let destination):
            try insert(items, at: destination)
        case .delete(let ids):
            try delete(ids)
        case .updateItem(let itemID, let label, let data):
            guard let handle = nodes.handle(of: itemID) else { throw BoardError("no item \(itemID)") }
            if let label { nodes[handle].item.label = label }
            switch data {
            case .unchanged: break
            case .replace(let object): nodes[handle].item.data = object
            case .remove: nodes[handle].item.data = nil
            }
        case .updateFolder(let itemID, let accepts):
            guard let handle = nodes.handle(of: itemID), nodes[handle].item.folder != nil else { throw BoardError("no folder \(itemID)") }
            nodes[handle].item.folder!.accepts = accepts
        case .renameCollection(let collectionID, let newTitle):
            guard let index = columnIndex(of: collectionID) else { throw BoardError("no collection \(collectionID)") }
            columns[index].title = newTitle
        case .renameBoard(let newTitle):
            title = newTitle
        case .addCollection(let collectionID, let newTitle, let before):
            guard list(named: collectionID) == nil else { throw BoardError("collection \(collectionID) exists") }
            var index = columns.endIndex
            if let before {
                guard let anchor = columnIndex(of: before) else { throw BoardError("no collection \(before)") }
                index = anchor
            }
            columns.insert(Column(id: collectionID, title: newTitle, list: makeList(folder: nil)), at: index)
        case .removeCollection(let collectionID):
            guard let index = columnIndex(of: collectionID) else { throw BoardError("no collection \(collectionID)") }
            guard chains[columns[index].list].first == Self.noHandle else { throw BoardError("collection \(collectionID) is not empty") }
            columns.remove(at: index)
        case .removeCollectionAndItems(let collectionID):
            guard let index = columnIndex(of: collectionID) else { throw BoardError("no collection \(collectionID)") }
            // Its items go as a delete takes them: folders with what they hold.
            let held = items(of: columns[index].list).map(\.id)
            if !held.isEmpty { try delete(held) }
            columns.remove(at: index)
        case .moveCollections(let sources, let before):
            let (indices, anchor) = try columnMoveIndices(sources, before: before, in: columns.map(\.id))
            columns.moveContiguously(indices, before: anchor)
        case .lock(let newValue):
            locked = newValue
        }
    }

    // MARK: Operations

    private mutating func move(_ sources: [ItemID], to destination: Destination) throws(BoardError) {
        let named = Set(sources)
        guard !sources.isEmpty, named.count == sources.count else { throw BoardError("bad sources") }
        guard let target = list(named: destination.collection) else { throw BoardError("no collection \(destination.collection)") }
        if let before = destination.before, named.contains(before) { throw BoardError("anchor \(before) is one of the sources") }
        if let inside = enclosingFolders(of: target).first(where: named.contains) {
            throw BoardError("folder \(inside) would be inside itself")
        }
        var moving: [Handle] = []
        moving.reserveCapacity(sources.count)
        for source in sources {
            guard let handle = nodes.handle(of: source) else { throw BoardError("no item \(source)") }
            moving.append(handle)
        }
        let anchor = try anchor(destination, in: target)
        for handle in moving { unlink(handle) }
        for handle in moving { link(handle, into: target, before: anchor) }
    }

    private mutating func insert(_ items: [Item], at destination: Destination) throws(BoardError) {
        guard let target = list(named: destination.collection) else { throw BoardError("no collection \(destination.collection)") }
        var seen = Set<ItemID>()
        for item in items where nodes.handle(of: item.id) != nil || !seen.insert(item.id).inserted {
            throw BoardError("item \(item.id) exists")
        }
        for item in items where item.folder != nil && list(named: item.id) != nil {
            throw BoardError("folder \(item.id) has the id of a list")
        }
        let anchor = try anchor(destination, in: target)
        for item in items { link(allocate(item), into: target, before: anchor) }
        // A folder is inserted empty.
        for item in items where item.folder != nil { folderLists[item.id] = makeList(folder: item.id) }
    }

    /// Deletes the items and, for a folder, everything inside it.
    private mutating func delete(_ ids: [ItemID]) throws(BoardError) {
        guard Set(ids).count == ids.count else { throw BoardError("duplicate ids") }
        for itemID in ids where nodes.handle(of: itemID) == nil { throw BoardError("no item \(itemID)") }
        for itemID in ids {
            // An item inside a folder deleted before it is gone already.
            guard let handle = nodes.handle(of: itemID) else { continue }
            unlink(handle)
            var doomed = [handle]
            while let next = doomed.popLast() {
                let item = nodes[next].item
                if item.folder != nil, let list = folderLists.removeValue(forKey: item.id) {
                    var inside = chains[list].first
                    while inside != Self.noHandle {
                        doomed.append(inside)
                        inside = nodes[inside].next
                    }
                }
                nodes.free(next)
            }
        }
    }

    // MARK: Lookups

    private func columnIndex(of id: CollectionID) -> Int? {
        columns.firstIndex { $0.id == id }
    }

    /// The list a destination names: a column first, else a folder's (as `Board.list(named:)`).
    private func list(named id: String) -> ListKey? {
        if let index = columnIndex(of: id) { return columns[index].list }
        return folderLists[id]
    }

    /// The folders around a list, innermost first (as `Board.enclosingFolders(of:)`).
    private func enclosingFolders(of list: ListKey) -> [ItemID] {
        var chain: [ItemID] = []
        var current = list
        while let folder = chains[current].folder {
            chain.append(folder)
            guard let handle = nodes.handle(of: folder) else { break }
            let outer = nodes[handle].list
            if let outerFolder = chains[outer].folder, chain.contains(outerFolder) { break }
            current = outer
        }
        return chain
    }

    /// The item a destination's `before` names, which must be in the target list.
    private func anchor(_ destination: Destination, in target: ListKey) throws(BoardError) -> Handle? {
        guard let before = destination.before else { return nil }
        guard let handle = nodes.handle(of: before), nodes[handle].list == target else {
            throw BoardError("anchor \(before) is not in \(destination.collection)")
        }
        return handle
    }

    private func items(of list: ListKey) -> [Item] {
        var items: [Item] = []
        var handle = chains[list].first
        while handle != Self.noHandle {
            items.append(nodes[handle].item)
            handle = nodes[handle].next
        }
        return items
    }

    // MARK: Storage

    private mutating func makeList(folder: ItemID?) -> ListKey {
        chains.append(Chain(folder: folder))
        return chains.count - 1
    }

    private mutating func allocate(_ item: Item) -> Handle {
        nodes.allocate(Node(item: item, list: -1, previous: Self.noHandle, next: Self.noHandle))
    }

    /// Puts a node that is in no list into `list`, before `anchor` or at the end.
    private mutating func link(_ handle: Handle, into list: ListKey, before anchor: Handle?) {
        let previous = anchor.map { nodes[$0].previous } ?? chains[list].last
        nodes[handle].list = list
        nodes[handle].previous = previous
        nodes[handle].next = anchor ?? Self.noHandle
        if previous == Self.noHandle { chains[list].first = handle } else { nodes[previous].next = handle }
        if let anchor { nodes[anchor].previous = handle } else { chains[list].last = handle }
    }

    /// Takes a node out of its list (its `list` is left for the caller to replace).
    private mutating func unlink(_ handle: Handle) {
        let node = nodes[handle]
        if node.previous == Self.noHandle { chains[node.list].first = node.next } else { nodes[node.previous].next = node.next }
        if node.next == Self.noHandle { chains[node.list].last = node.previous } else { nodes[node.next].previous = node.previous }
    }
}
