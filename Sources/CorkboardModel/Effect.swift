/// What an applied operation did, in positions: enough to undo it, and to follow an
/// index forward through it. The history keeps one per committed event, next to the
/// event itself, instead of copies of the board.

/// A stable name for a collection inside the engine. Unlike its index it survives
/// collections being added and removed, and unlike its id it is never reused, so a
/// position recorded in the history keeps meaning the same list.
typealias CollectionKey = Int

/// An item's place before an operation: `index` in the list of collection `key`.
struct Position: Hashable {
    var key: CollectionKey
    var index: Int
}

/// An item a delete removed, with everything needed to put it back.
struct RemovedItem {
    var item: Item
    var position: Position
}

/// A folder's list that a delete removed (with its folder), to put back under its old key.
struct RemovedList {
    var key: CollectionKey
    var id: ItemID
}

enum Effect {
    /// The sources (in the event's order) were at `from` before the move; afterwards
    /// they sit contiguously from `insertionIndex` in collection `destination`.
    /// `insertionIndex` counts in the destination list with the sources removed.
    case move(from: [Position], destination: CollectionKey, insertionIndex: Int)
    /// `createdLists`: the (empty) lists of the folders it inserted.
    case insert(destination: CollectionKey, insertionIndex: Int, count: Int, createdLists: [CollectionKey])
    /// The named items in the event's order, then what was inside the folders among them;
    /// each position is in the list before the delete. `removedLists`: those folders' lists.
    case delete(removed: [RemovedItem], removedLists: [RemovedList])
    case updateItem(previousLabel: String, previousData: JSONObject?)
    case updateFolder(previousAccepts: Bool)
    case renameCollection(key: CollectionKey, previousTitle: String)
    case renameBoard(previousTitle: String)
    case addCollection(key: CollectionKey, index: Int)
    /// `removed` and `removedLists` as a delete's: what the column held (none unless removed
    /// with its items), in the list before the removal.
    case removeCollection(key: CollectionKey, index: Int, title: String, removed: [RemovedItem], removedLists: [RemovedList])
    /// The moved columns were at `from` (column indices, in the event's order) and now sit
    /// contiguously from `insertionIndex`. Items keep their lists' keys: nothing positional
    /// changes for them.
    case moveCollections(from: [Int], insertionIndex: Int)
    case lock(previous: Bool)
}

extension Effect {
    /// The items an effect took off the board, and the folders' lists with them: a delete's,
    /// or a column's removed with its items.
    var deletion: (removed: [RemovedItem], removedLists: [RemovedList])? {
        switch self {
        case .delete(let removed, let removedLists), .removeCollection(_, _, _, let removed, let removedLists):
            (removed, removedLists)
        default: nil
        }
    }
}

/// One committed event and its effect: a history entry.
struct HistoryEntry {
    var event: CommittedEvent
    var effect: Effect
}
