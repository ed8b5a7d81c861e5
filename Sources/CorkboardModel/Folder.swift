/// Folders: items that hold items (docs/model.md "Folders").
///
/// A folder is an item with a `folder` field. Its contents are a list like a column's,
/// named by the folder's item id: a `destination.collection` may name a column or a
/// folder, so a move into a folder is an ordinary move. Column ids and folder ids share
/// that one namespace. Folders nest up to `Limits.maximumFolderDepth` deep and never
/// inside themselves.

/// What makes an item a folder.
public struct Folder: Sendable, Hashable, Codable {
    /// Whether items may be moved or inserted into it from elsewhere (SwiftUI's
    /// `dropDestination(isEnabled:)`). Reordering what is already inside is always allowed.
    public var accepts: Bool

    public init(accepts: Bool = true) {
        self.accepts = accepts
    }
}

extension Limits {
    /// How deep items may sit: an item in a column is at depth 1, an item in a folder one
    /// deeper than the folder.
    public static let maximumFolderDepth = 16
}

/// One list of items on a plain board: a column, or a folder's contents.
public enum ListPlace: Sendable, Hashable {
    /// The index in `Board.collections`.
    case column(Int)
    /// The folder's item id, a key of `Board.folders`.
    case folder(ItemID)
}

extension Board {
    /// The list a destination names: a column, or a folder on the board.
    public func list(named id: String) -> ListPlace? {
        if let index = collectionIndex(of: id) { return .column(index) }
        return folders[id] != nil ? .folder(id) : nil
    }

    /// The items of a list.
    public func items(in place: ListPlace) -> [Item] {
        switch place {
        case .column(let index): collections[index].items
        case .folder(let id): folders[id] ?? []
        }
    }

    /// Changes the items of a list in place.
    mutating func modifyItems<Result>(in place: ListPlace, _ body: (inout [Item]) throws(BoardError) -> Result) throws(BoardError) -> Result {
        switch place {
        case .column(let index): return try body(&collections[index].items)
        case .folder(let id): return try body(&folders[id, default: []])
        }
    }

    /// The id of a list: the column's id, or the folder's.
    public func listID(_ place: ListPlace) -> String {
        switch place {
        case .column(let index): collections[index].id
        case .folder(let id): id
        }
    }

    /// Where the item is: its list and its index there, if it is on the board.
    public func location(of item: ItemID) -> (list: ListPlace, index: Int)? {
        for (collectionIndex, collection) in collections.enumerated() {
            if let index = collection.items.firstIndex(where: { $0.id == item }) {
                return (.column(collectionIndex), index)
            }
        }
        for (folder, items) in folders {
            if let index = items.firstIndex(where: { $0.id == item }) { return (.folder(folder), index) }
        }
        return nil
    }

    /// Every list items may go to, as (id, items): the columns in board order, then the
    /// folders by id.
    public var lists: [(id: String, items: [Item])] {
        collections.map { ($0.id, $0.items) } + folders.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    /// The item with this id, wherever it is.
    public func item(_ id: ItemID) -> Item? {
        location(of: id).map { items(in: $0.list)[$0.index] }
    }

    /// The folders around a list, innermost first: for a column none, for a folder the
    /// folder itself and every folder it sits in.
    public func enclosingFolders(of place: ListPlace) -> [ItemID] {
        var chain: [ItemID] = []
        var current = place
        while case .folder(let id) = current {
            chain.append(id)
            guard let outer = location(of: id)?.list, !chain.contains(listID(outer)) else { break }
            current = outer
        }
        return chain
    }

    /// The item and everything inside it, level by level (what it holds, then what those hold).
    public func subtree(of item: Item) -> [Item] {
        var result = [item]
        var index = 0
        while index < result.count {
            if result[index].folder != nil { result += folders[result[index].id] ?? [] }
            index += 1
        }
        return result
    }
}
