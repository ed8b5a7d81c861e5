/// The positional part of an effect in plain-old-data form.
///
/// Following an index through the history touches every event since the base seq.
/// Reading that from `Effect` would retain and release its arrays at every step, which
/// profiling showed to be most of the cost of an offsets move; `Motion` and the shared
/// pool of `Position`s hold the same facts with no reference counting at all.
struct Motion {
    enum Kind: UInt8 {
        case move, insert, delete, addCollection, removeCollection, other
    }

    var kind: Kind
    /// Move and insert: the destination list. Collection add and remove: the list.
    var key: CollectionKey
    /// Move and insert: where the items start in the destination afterwards.
    var insertionIndex: Int
    /// Move: the number of sources. Insert: the number inserted. Delete: removed.
    var count: Int
    /// Move, delete and a column's removal: the absolute index of the first of `count` positions in the
    /// history's position pool (the move's `from`, the delete's removed positions).
    var firstPosition: Int
    /// Insert and delete: folders' lists were created or removed (read them from the effect).
    var changesLists = false
}

extension Motion {
    /// The motion of an effect whose positions start at `firstPosition` in the pool.
    init(_ effect: Effect, firstPosition: Int) {
        self.init(kind: .other, key: -1, insertionIndex: 0, count: 0, firstPosition: firstPosition)
        switch effect {
        case .move(let from, let destination, let insertionIndex):
            (kind, key, self.insertionIndex, count) = (.move, destination, insertionIndex, from.count)
        case .insert(let destination, let insertionIndex, let inserted, let createdLists):
            (kind, key, self.insertionIndex, count) = (.insert, destination, insertionIndex, inserted)
            changesLists = !createdLists.isEmpty
        case .delete(let removed, let removedLists):
            (kind, count) = (.delete, removed.count)
            changesLists = !removedLists.isEmpty
        case .addCollection(let added, _):
            (kind, key) = (.addCollection, added)
        case .removeCollection(let removed, _, _, let items, let lists):
            (kind, key, count) = (.removeCollection, removed, items.count)
            changesLists = !lists.isEmpty
        case .updateItem, .updateFolder, .renameCollection, .renameBoard, .moveCollections, .lock:
            break
        }
    }

    /// The positions an effect contributes to the pool, in the effect's order.
    static func positions(of effect: Effect) -> [Position] {
        switch effect {
        case .move(let from, _, _): from
        case .delete(let removed, _), .removeCollection(_, _, _, let removed, _): removed.map(\.position)
        default: []
        }
    }
}
