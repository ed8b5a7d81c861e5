/// The board's column order as it was at an earlier seq `b`: what a collection move's offsets
/// and its anchor fallback (docs/protocol.md#5-resolution) are read against.
///
/// Columns are few, and only `collection.add`, `collection.remove` and `collection.move`
/// change their order, so the order is rebuilt by undoing those events newest first.

extension BoardEngine {
    /// The column ids in board order at seq `b`, which must be within the kept history.
    func pastColumns(asOf b: Int) -> [CollectionID] {
        var order = current.columns.map(\.id)
        var seq = history.latestSeq
        while seq > b {
            let entry = history[seq]
            switch (entry.effect, entry.event.op) {
            case (.addCollection(_, let index), _):
                order.remove(at: index)
            case (.removeCollection(_, let index, _, _, _), let op):
                order.insert(op.removedCollection!, at: index)
            case (.moveCollections(let from, let insertionIndex), _):
                order.unmoveContiguously(from: from, insertionIndex: insertionIndex)
            default:
                break
            }
            seq -= 1
        }
        return order
    }
}
