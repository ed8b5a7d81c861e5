import CorkboardModel

/// What undoes one step of a person's or bot's (a move, an insert, a delete, an edit, a column
/// change) and, once used, what redoes it: a recipe resolved against the board as it is when
/// asked, never a replay of old operations, since others have changed the board meanwhile
/// (docs/protocol.md#undo-and-redo). The same rules as the browser SDK's `web/sdk/undo.js`; both
/// are checked against Tests/Fixtures/undo.
public enum UndoStep: Sendable, Hashable {
    /// Put moved items back where they were.
    case place([PlacedItem])
    /// Delete inserted items.
    case remove([ItemID])
    /// Insert deleted items again, with their ids, labels and data, where they were.
    case restore([PlacedItem])
    /// Set an item's label and/or data back (`data` `.remove` when it had none).
    case edit(item: ItemID, label: String?, data: DataChange)
    /// Set a collection's title back.
    case retitle(collection: CollectionID, title: String)
    /// Remove an added collection, with the items this step put in it (never others').
    case dropColumn(collection: CollectionID, items: [ItemID])
    /// Add a removed collection again where it was, with the items it held (and, for one removed
    /// with its items, what its folders held, by folder id).
    case restoreColumn(id: CollectionID, title: String, place: UndoPlace, items: [Item], contents: [ItemID: [Item]])
    /// Put moved columns back where they were, each with its place among the columns.
    case placeColumns([PlacedColumn])

    /// A column and where it was among the columns, leaving out those moved with it.
    public struct PlacedColumn: Sendable, Hashable {
        public var id: CollectionID
        public var place: UndoPlace
    }

    /// An item and where it was; for a deleted folder, what it held (by folder id, the
    /// folders inside it too), which comes back with it.
    public struct PlacedItem: Sendable, Hashable {
        public var item: Item
        public var collection: CollectionID
        public var place: UndoPlace
        public var contents: [ItemID: [Item]] = [:]
    }

    /// The step that undoes `operations` (one gesture's), done on `board` (the board just
    /// before them). Nil when there is nothing to undo: a lock, or items that were not there.
    public static func undoing(_ operations: [BoardOperation], on board: Board) -> UndoStep? {
        guard let first = operations.first else { return nil }
        // A removed collection (after the delete of its items, when a redo removes one that
        // has items) comes back with what it held.
        for id in operations.compactMap(\.removedColumn) {
            guard let index = board.collections.firstIndex(where: { $0.id == id }) else { return nil }
            let column = board.collections[index]
            let place = UndoPlace(in: board.collections.map(\.id), at: index, leaving: [id])
            let contents = column.items.filter { $0.folder != nil }.reduce(into: [ItemID: [Item]]()) { all, folder in
                all.merge(Self.contents(of: folder, on: board)) { first, _ in first }
            }
            return .restoreColumn(id: id, title: column.title, place: place, items: column.items, contents: contents)
        }
        switch first {
        case .move:
            let placed = placedItems(Set(operations.flatMap(\.movedItems)), on: board)
            return placed.isEmpty ? nil : .place(placed)
        case .insert:
            return .remove(operations.flatMap { $0.insertedItems(into: nil) })
        case .delete:
            var placed = placedItems(Set(operations.flatMap(\.deletedItems)), on: board)
            // A deleted folder comes back with what it held (its delete took that along).
            for index in placed.indices where placed[index].item.folder != nil {
                placed[index].contents = contents(of: placed[index].item, on: board)
            }
            return placed.isEmpty ? nil : .restore(placed)
        case .updateItem(let id, let label, let data):
            guard let item = board.item(id) else { return nil }
            let oldData: DataChange =
                switch data {
                case .unchanged: .unchanged
                case .replace, .remove: item.data.map { .replace($0) } ?? .remove
                }
            return .edit(item: id, label: label == nil ? nil : item.label, data: oldData)
        case .renameCollection(let id, _):
            guard let column = board.collections.first(where: { $0.id == id }) else { return nil }
            return .retitle(collection: id, title: column.title)
        case .addCollection(let id, _, _):
            return .dropColumn(collection: id, items: operations.flatMap { $0.insertedItems(into: id) })
        case .moveCollections:
            // The moved columns in their old board order, as items of a move are taken in reading order.
            let moved = Set(operations.flatMap(\.movedColumns))
            let ids = board.collections.map(\.id)
            let placed = ids.enumerated().compactMap { index, id in
                moved.contains(id) ? PlacedColumn(id: id, place: UndoPlace(in: ids, at: index, leaving: moved)) : nil
            }
            return placed.isEmpty ? nil : .placeColumns(placed)
        case .removeCollection, .removeCollectionAndItems, .lock, .updateFolder, .renameBoard:
            // Locking and whether a folder takes drops are switches of their own, and the
            // board's title is the owner's to set (PATCH /api/boards/{id}): none is an edit of
            // the board's content.
            return nil
        }
    }

    /// The operations that carry this step out on `board` as it is now, or why it cannot be.
    public func resolve(on board: Board) -> Result<[BoardOperation], UndoRefusal> {
        switch self {
        case .place(let placed):
            let present = placed.filter { board.item($0.item.id) != nil }
            guard !present.isEmpty else { return .failure(.gone(placed.count == 1 ? "That card no longer exists." : "Those cards no longer exist.")) }
            let groups = Self.grouped(present, on: board)
            guard !groups.isEmpty else { return .failure(.gone(Self.columnGone(present[0].collection))) }
            return .success(groups.map { .move(sources: $0.items.map(\.id), destination: $0.destination) })
        case .remove(let ids):
            let present = ids.filter { board.item($0) != nil }
            guard !present.isEmpty else { return .failure(.gone(ids.count == 1 ? "That card no longer exists." : "Those cards no longer exist.")) }
            return .success([.delete(items: present)])
        case .restore(let placed):
            let missing = placed.filter { board.item($0.item.id) == nil }
            guard !missing.isEmpty else { return .failure(.exists(placed.count == 1 ? "That card is already back." : "Those cards are already back.")) }
            let groups = Self.grouped(missing, on: board)
            guard !groups.isEmpty else { return .failure(.gone(Self.columnGone(missing[0].collection))) }
            var operations: [BoardOperation] = groups.map { .insert(items: $0.items, destination: $0.destination) }
            // Then what the restored folders held, each folder's after the folder itself.
            var restored = Set(groups.flatMap { $0.items.map(\.id) })
            for entry in missing where restored.contains(entry.item.id) && !entry.contents.isEmpty {
                operations += Self.refilling(entry.item.id, from: entry.contents, restored: &restored, on: board)
            }
            return .success(operations)
        case .edit(let item, let label, let data):
            guard board.item(item) != nil else { return .failure(.gone("That card no longer exists.")) }
            return .success([.updateItem(item: item, label: label, data: data)])
        case .retitle(let collection, let title):
            guard board.collections.contains(where: { $0.id == collection }) else { return .failure(.gone(Self.columnGone(collection))) }
            return .success([.renameCollection(collection: collection, title: title)])
        case .dropColumn(let collection, let ours):
            guard let column = board.collections.first(where: { $0.id == collection }) else { return .failure(.gone(Self.columnGone(collection))) }
            guard column.items.allSatisfy({ ours.contains($0.id) }) else {
                return .failure(.notEmpty("Others have added cards to “\(column.title)” since, so it stays."))
            }
            let delete: [BoardOperation] = column.items.isEmpty ? [] : [.delete(items: column.items.map(\.id))]
            return .success(delete + [.removeCollection(collection: collection)])
        case .restoreColumn(let id, let title, let place, let items, let contents):
            guard !board.collections.contains(where: { $0.id == id }) else { return .failure(.exists("The column “\(title)” is already there.")) }
            let before = place.anchor(in: board.collections.map(\.id))
            let missing = items.filter { board.item($0.id) == nil }
            var operations: [BoardOperation] = [.addCollection(collection: id, title: title, before: before)]
            if !missing.isEmpty { operations.append(.insert(items: missing, destination: Destination(collection: id, before: nil))) }
            // Then what its folders held, each folder's after the folder itself.
            var restored = Set(missing.map(\.id))
            for folder in missing where folder.folder != nil {
                operations += Self.refilling(folder.id, from: contents, restored: &restored, on: board)
            }
            return .success(operations)
        case .placeColumns(let placed):
            let ids = board.collections.map(\.id)
            let present = placed.filter { ids.contains($0.id) }
            guard !present.isEmpty else {
                return .failure(.gone(placed.count == 1 ? "That column no longer exists." : "Those columns no longer exist."))
            }
            // The place rule over the columns without those going back; those landing at the
            // same spot go in one operation, in their old order.
            let leaving = Set(present.map(\.id))
            let rest = ids.filter { !leaving.contains($0) }
            var groups: [(before: CollectionID?, columns: [CollectionID])] = []
            for column in present {
                let before = column.place.anchor(in: rest)
                if let at = groups.firstIndex(where: { $0.before == before }) {
                    groups[at].columns.append(column.id)
                } else {
                    groups.append((before, [column.id]))
                }
            }
            return .success(groups.map { .moveCollections(collections: $0.columns, before: $0.before) })
        }
    }

    /// The items of `ids` on the board with their places, in reading order (collection by
    /// collection, top to bottom, then folder by folder), each place leaving out the others
    /// of `ids`.
    private static func placedItems(_ ids: Set<ItemID>, on board: Board) -> [PlacedItem] {
        board.lists.flatMap { list, items in
            let all = items.map(\.id)
            return items.enumerated().compactMap { index, item in
                ids.contains(item.id) ? PlacedItem(item: item, collection: list, place: UndoPlace(in: all, at: index, leaving: ids)) : nil
            }
        }
    }

    /// The inserts that put back what `folder` held (and the folders inside it), each folder's
    /// after the folder itself, leaving out what is on the board again or restored already.
    private static func refilling(
        _ folder: ItemID, from contents: [ItemID: [Item]], restored: inout Set<ItemID>, on board: Board
    ) -> [BoardOperation] {
        var operations: [BoardOperation] = []
        var folders = [folder]
        var next = 0
        while next < folders.count {
            let items = (contents[folders[next]] ?? []).filter { board.item($0.id) == nil && !restored.contains($0.id) }
            for item in items {
                restored.insert(item.id)
                if item.folder != nil { folders.append(item.id) }
            }
            if !items.isEmpty { operations.append(.insert(items: items, destination: Destination(collection: folders[next]))) }
            next += 1
        }
        return operations
    }

    /// What a folder holds, and the folders inside it hold, by folder id.
    private static func contents(of folder: Item, on board: Board) -> [ItemID: [Item]] {
        Dictionary(uniqueKeysWithValues: board.subtree(of: folder).filter { $0.folder != nil }.map { ($0.id, board.folders[$0.id] ?? []) })
    }

    /// Items grouped by where they go now, in their order; those whose collection is gone are
    /// left out.
    private static func grouped(_ placed: [PlacedItem], on board: Board) -> [(destination: Destination, items: [Item])] {
        let leaving = Set(placed.map(\.item.id))
        var groups: [(destination: Destination, items: [Item])] = []
        for entry in placed {
            guard let list = board.list(named: entry.collection) else { continue }
            let rest = board.items(in: list).map(\.id).filter { !leaving.contains($0) }
            let destination = Destination(collection: entry.collection, before: entry.place.anchor(in: rest))
            if let at = groups.firstIndex(where: { $0.destination == destination }) {
                groups[at].items.append(entry.item)
            } else {
                groups.append((destination, [entry.item]))
            }
        }
        return groups
    }

    private static func columnGone(_ id: CollectionID) -> String {
        "The column it was in (\(id)) no longer exists."
    }
}

/// Why a step cannot be undone (or redone) on the board as it is now.
public enum UndoRefusal: Error, Sendable, Hashable {
    /// Its item or collection no longer exists.
    case gone(String)
    /// What it would bring back is already there.
    case exists(String)
    /// Others added items to the collection it would remove.
    case notEmpty(String)

    /// The code the browser SDK gives the same refusal.
    public var code: String {
        switch self {
        case .gone: "gone"
        case .exists: "exists"
        case .notEmpty: "not-empty"
        }
    }

    public var message: String {
        switch self {
        case .gone(let message), .exists(let message), .notEmpty(let message): message
        }
    }
}

extension BoardOperation {
    /// A move's sources (none for other operations).
    fileprivate var movedItems: [ItemID] {
        if case .move(let sources, _) = self { return sources }
        return []
    }

    /// A collection move's columns (none for other operations).
    fileprivate var movedColumns: [CollectionID] {
        if case .moveCollections(let collections, _) = self { return collections }
        return []
    }

    /// The column a `collection.remove` removes, with or without its items.
    fileprivate var removedColumn: CollectionID? {
        switch self {
        case .removeCollection(let id), .removeCollectionAndItems(let id): id
        default: nil
        }
    }

    /// A delete's items (none for other operations).
    fileprivate var deletedItems: [ItemID] {
        if case .delete(let items) = self { return items }
        return []
    }

    /// An insert's item ids, if it goes into `collection` (nil: any).
    fileprivate func insertedItems(into collection: CollectionID?) -> [ItemID] {
        guard case .insert(let items, let destination) = self, collection == nil || destination.collection == collection else { return [] }
        return items.map(\.id)
    }
}
