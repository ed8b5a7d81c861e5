/// Reading the board as it was at an earlier seq `b`, without rebuilding all of it.
///
/// Offsets moves (docs/protocol.md#4-operations) and anchor fallbacks (rule 5 of
/// docs/protocol.md#5-resolution) need a few facts about one or two lists as of `b`.
/// Each is answered by walking the history between `b` and now and doing arithmetic on
/// recorded positions, which costs a few nanoseconds per event instead of a copy of the
/// board.

extension BoardOperation {
    /// The column a `collection.remove` removes (with or without its items).
    var removedCollection: CollectionID? {
        switch self {
        case .removeCollection(let id), .removeCollectionAndItems(let id): id
        default: nil
        }
    }
}

/// An item that was at some place at `b`, identified now.
enum PastItem: Equatable {
    /// Still on the board.
    case present(ItemID)
    /// Deleted since `b`.
    case deleted(ItemID)

    var id: ItemID {
        switch self {
        case .present(let id), .deleted(let id): id
        }
    }
}

/// A collection as it was at `b`: which list it was, and how long.
struct PastCollection {
    var key: CollectionKey
    var count: Int
}

extension BoardEngine {
    /// The collection that had this id at seq `b` (within the window), and its length
    /// then; nil if no collection had that id at `b`.
    ///
    /// Walks back from now: a collection is empty when it is removed, so undoing a
    /// removal starts its count at zero.
    func pastCollection(_ id: CollectionID, asOf b: Int) -> PastCollection? {
        var key = current.key(of: id)
        var count = key.map { current.collections[current.collectionIndex(ofKey: $0)!].order.count } ?? 0
        var seq = history.latestSeq
        while seq > b {
            let motion = history.motion(seq)
            switch motion.kind {
            case .move:
                if motion.key == key { count -= motion.count }
                for pool in motion.firstPosition..<motion.firstPosition + motion.count
                where history.position(pool).key == key {
                    count += 1
                }
            case .insert:
                if motion.key == key { count -= motion.count }
                // Before the insert that created it, a folder's list did not exist.
                if motion.changesLists, let listKey = key, case .insert(_, _, _, let created) = history[seq].effect,
                    created.contains(listKey)
                {
                    key = nil
                    count = 0
                }
            case .delete, .removeCollection:
                // Before the removal of this column, or the delete of its folder (or of the column
                // around it), the list existed, with the items that went with it.
                if motion.kind == .removeCollection, history[seq].event.op.removedCollection == id {
                    key = motion.key
                    count = 0
                }
                if motion.changesLists, let lists = history[seq].effect.deletion?.removedLists,
                    let list = lists.first(where: { $0.id == id })
                {
                    key = list.key
                    count = 0
                }
                for pool in motion.firstPosition..<motion.firstPosition + motion.count
                where history.position(pool).key == key {
                    count += 1
                }
            case .addCollection:
                if motion.key == key {
                    key = nil
                    count = 0
                }
            case .other:
                break
            }
            seq -= 1
        }
        return key.map { PastCollection(key: $0, count: count) }
    }

    /// Which items were at these positions at seq `b`.
    ///
    /// Follows each position forward through every later event: a source of a move
    /// jumps to its new place, any other item shifts by the items removed below it
    /// and inserted at or below it.
    func pastItems(at pastPositions: [Position], asOf b: Int) -> [PastItem] {
        var positions = pastPositions
        // The seq of the delete that removed a tracked item, if one did.
        var deletedAt = [Int?](repeating: nil, count: positions.count)
        var seq = b + 1
        while seq <= history.latestSeq {
            let motion = history.motion(seq)
            let pool = motion.firstPosition..<motion.firstPosition + motion.count
            switch motion.kind {
            case .move:
                for tracked in positions.indices where deletedAt[tracked] == nil {
                    let position = positions[tracked]
                    var index = position.index
                    var jumped = false
                    for slot in pool {
                        let source = history.position(slot)
                        guard source.key == position.key else { continue }
                        if source.index == position.index {
                            positions[tracked] = Position(
                                key: motion.key, index: motion.insertionIndex + slot - motion.firstPosition)
                            jumped = true
                            break
                        }
                        if source.index < position.index { index -= 1 }
                    }
                    if jumped { continue }
                    if position.key == motion.key && index >= motion.insertionIndex { index += motion.count }
                    positions[tracked].index = index
                }
            case .insert:
                for tracked in positions.indices
                where deletedAt[tracked] == nil && positions[tracked].key == motion.key
                    && positions[tracked].index >= motion.insertionIndex
                {
                    positions[tracked].index += motion.count
                }
            case .delete, .removeCollection:
                for tracked in positions.indices where deletedAt[tracked] == nil {
                    // The position stays as it was at the delete, to find the item's id.
                    let position = positions[tracked]
                    var index = position.index
                    for slot in pool {
                        let removed = history.position(slot)
                        guard removed.key == position.key else { continue }
                        if removed.index == position.index {
                            deletedAt[tracked] = seq
                            break
                        }
                        if removed.index < position.index { index -= 1 }
                    }
                    if deletedAt[tracked] == nil { positions[tracked].index = index }
                }
            case .addCollection, .other:
                break
            }
            seq += 1
        }
        return positions.indices.map { tracked in
            let position = positions[tracked]
            if let seq = deletedAt[tracked] {
                guard let removed = history[seq].effect.deletion?.removed,
                    let hit = removed.first(where: { $0.position == position })
                else { preconditionFailure("delete \(seq) lost the item it removed") }
                return .deleted(hit.item.id)
            }
            let list = current.collections[current.collectionIndex(ofKey: position.key)!].order
            return .present(current.itemID(list[position.index]))
        }
    }

    /// The ids in the collection named `id` at seq `b`, in order; nil if there was none.
    ///
    /// Rebuilds just that one list by undoing later events on it, newest first. Only
    /// the rare anchor fallback (the anchor left the destination) needs this.
    func pastOrder(of id: CollectionID, asOf b: Int) -> [ItemID]? {
        guard let past = pastCollection(id, asOf: b) else { return nil }
        var order: [ItemID] = []
        if let index = current.collectionIndex(ofKey: past.key) {
            order = current.collections[index].order.map(current.itemID)
        }
        var seq = history.latestSeq
        while seq > b {
            let entry = history[seq]
            switch (entry.effect, entry.event.op) {
            case (.move(let from, let destination, let insertionIndex), .move(let sources, _)):
                if destination == past.key { order.removeSubrange(insertionIndex..<insertionIndex + from.count) }
                let returning = zip(sources, from).filter { $0.1.key == past.key }.sorted { $0.1.index < $1.1.index }
                for (source, position) in returning { order.insert(source, at: position.index) }
            case (.insert(let destination, let insertionIndex, let inserted, _), _):
                if destination == past.key { order.removeSubrange(insertionIndex..<insertionIndex + inserted) }
            case (.delete(let removed, _), _), (.removeCollection(_, _, _, let removed, _), _):
                let returning = removed.filter { $0.position.key == past.key }.sorted { $0.position.index < $1.position.index }
                for item in returning { order.insert(item.item.id, at: item.position.index) }
            default:
                break
            }
            seq -= 1
        }
        return order
    }
}
