/// Resolving `collection.move` (docs/protocol.md#5-resolution): the item move's rules,
/// applied to the board's columns instead of a list's items.

/// A collection move in anchor form on its way through rules 3–6. For an offsets move the
/// collections and anchor are the ids read at the base seq.
struct ColumnMove {
    var collections: [CollectionID]
    var anchor: CollectionID?
    /// Already adjusted before rule 3 (duplicate offsets).
    var adjusted: Bool
}

extension BoardEngine {
    /// Rule 1 for the ids a collection move names: a folder's list is no column.
    func checkNamesColumns(_ collections: [CollectionID], before: CollectionID?) throws(Refusal) {
        for id in collections + (before.map { [$0] } ?? []) {
            if let index = current.collectionIndex(of: id), current.collections[index].isFolder {
                throw .invalid("\(id) is a folder, not a column: it is moved as an item")
            }
        }
    }

    /// Reads an offsets collection move against the columns as of `base`, exactly as
    /// `Array.move(fromOffsets:toOffset:)` reads its arguments.
    func readColumnOffsets(fromOffsets: [Int], toOffset: Int, asOf base: Int) throws(Refusal) -> ColumnMove {
        guard history.reaches(base) else { throw .gone("baseSeq \(base) is older than the kept history") }
        let columns = pastColumns(asOf: base)
        let offsets = Array(Set(fromOffsets)).sorted()
        guard offsets.first! >= 0, offsets.last! < columns.count else {
            throw .invalid("fromOffsets out of range 0..<\(columns.count)")
        }
        guard toOffset >= 0, toOffset <= columns.count else { throw .invalid("toOffset out of range 0...\(columns.count)") }
        return ColumnMove(
            collections: offsets.map { columns[$0] }, anchor: toOffset < columns.count ? columns[toOffset] : nil,
            adjusted: offsets.count != fromOffsets.count)
    }

    /// Rules 3, 5 and 6 for a collection move.
    func resolveColumnMove(_ move: ColumnMove, base: Int, client: ClientID, leases: LeaseTable) throws(Refusal) -> Resolved {
        let columns = current.columns.map(\.id)
        // Rule 3: drop duplicates (keeping the first) and ids that are no column now. Sets, so a
        // message naming a hundred thousand ids costs that many lookups, not their square.
        let present = Set(columns)
        var seen = Set<CollectionID>()
        var survivors: [CollectionID] = []
        for id in move.collections where present.contains(id) && seen.insert(id).inserted { survivors.append(id) }
        guard !survivors.isEmpty else { throw .gone("none of the collections to move exists any more") }
        // A column in another client's drag of columns is theirs until they drop it.
        if !leases.columnHolders.isEmpty {
            for column in survivors {
                if let holder = leases.holder(ofColumn: column), holder != client {
                    throw Refusal(code: .busy, message: "column \(column) is being dragged by \(holder)")
                }
            }
        }
        // Rule 5.
        let (before, anchorAdjusted) = resolveColumnAnchor(move.anchor, columns: columns, sources: survivors, base: base)
        // Rule 6: already in place is a noop.
        if let first = columns.firstIndex(of: survivors[0]), first + survivors.count <= columns.count,
            Array(columns[first..<first + survivors.count]) == survivors,
            (before.map { columns.firstIndex(of: $0) } ?? columns.count) == first + survivors.count
        {
            return .noop
        }
        let adjusted = move.adjusted || anchorAdjusted || survivors.count != move.collections.count
        return .change(.moveCollections(collections: survivors, before: before), adjusted: adjusted, leaseHits: [])
    }

    /// Rule 5 over the columns: the result is nil (the end) or a column that is not moved.
    private func resolveColumnAnchor(
        _ anchor: CollectionID?, columns: [CollectionID], sources: [CollectionID], base: Int
    ) -> (before: CollectionID?, adjusted: Bool) {
        guard let anchor else { return (nil, false) }
        if let index = columns.firstIndex(of: anchor) {
            guard sources.contains(anchor) else { return (anchor, false) }
            // Moving columns before one of themselves gathers them in place.
            return (columns[(index + 1)...].first { !sources.contains($0) }, false)
        }
        // The anchor was removed: the next column after it at `base` that is still a column
        // and not moved.
        guard history.reaches(base) else { return (nil, true) }
        let past = pastColumns(asOf: base)
        guard let pastIndex = past.firstIndex(of: anchor) else { return (nil, true) }
        return (past[(pastIndex + 1)...].first { columns.contains($0) && !sources.contains($0) }, true)
    }
}
