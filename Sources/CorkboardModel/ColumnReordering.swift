/// Moving columns within the board's order: the one piece of arithmetic that the server's
/// engine, a replica's `Board` and the folding store board all apply to their own column
/// arrays, so that the three agree by construction.

extension Array {
    /// Moves the elements at `sources` (indices, in the order they are to land) so that they
    /// sit contiguously before the element now at `anchor` (nil: at the end), and returns
    /// where the first of them lands. The indices must be distinct and in range, and `anchor`
    /// (which may be `endIndex`) must not be one of them.
    @discardableResult
    mutating func moveContiguously(_ sources: [Int], before anchor: Int?) -> Int {
        let moving = sources.map { self[$0] }
        for index in sources.sorted(by: >) { remove(at: index) }
        let insertionIndex = anchor.map { anchor in anchor - sources.count(where: { $0 < anchor }) } ?? endIndex
        insert(contentsOf: moving, at: insertionIndex)
        return insertionIndex
    }

    /// Reverses `moveContiguously`: the `from.count` elements at `insertionIndex` go back to
    /// the indices in `from` (given in the same order as the sources were).
    mutating func unmoveContiguously(from: [Int], insertionIndex: Int) {
        let moved = Array(self[insertionIndex..<insertionIndex + from.count])
        removeSubrange(insertionIndex..<insertionIndex + from.count)
        // Ascending order puts every element back at its recorded index.
        for (element, index) in zip(moved, from).sorted(by: { $0.1 < $1.1 }) { insert(element, at: index) }
    }
}

/// The checks every applier of a resolved `collection.move` makes, on the column ids in
/// board order: the indices of the sources (in the event's order) and of the anchor.
func columnMoveIndices(
    _ sources: [CollectionID], before: CollectionID?, in columns: [CollectionID]
) throws(BoardError) -> (sources: [Int], anchor: Int?) {
    guard !sources.isEmpty else { throw BoardError("a collection move needs collections") }
    var indices: [Int] = []
    for source in sources {
        guard let index = columns.firstIndex(of: source) else { throw BoardError("no collection \(source)") }
        guard !indices.contains(index) else { throw BoardError("collection \(source) is named twice") }
        indices.append(index)
    }
    guard let before else { return (indices, nil) }
    guard let anchor = columns.firstIndex(of: before), !indices.contains(anchor) else {
        throw BoardError("anchor \(before) is not a column that stays")
    }
    return (indices, anchor)
}
