/// Cheap reads of the current board for the hub (drag placeholders, presence) and for
/// benchmarks, without materialising the whole ``Board``.
extension BoardEngine {
    /// The ids of the collections (the columns, not folders' lists), in board order.
    public var collectionIDs: [CollectionID] {
        current.columns.map(\.id)
    }

    /// Whether `id` names one of the board's columns now (not a folder's list).
    public func isColumn(_ id: CollectionID) -> Bool {
        current.collectionIndex(of: id).map { $0 < current.columnCount } ?? false
    }

    /// How many items the collection (or folder) holds now; nil if there is no such list.
    public func itemCount(of collection: CollectionID) -> Int? {
        current.collectionIndex(of: collection).map { current.collections[$0].order.count }
    }

    /// The collection that holds the item now.
    public func collection(holding item: ItemID) -> CollectionID? {
        guard let handle = current.handle(of: item) else { return nil }
        return current.collections[current.collectionIndex(ofKey: current.record(handle).collection)!].id
    }

    public func contains(_ item: ItemID) -> Bool {
        current.contains(item)
    }

    /// The id at `index` of the collection's list with `excluded` left out, nil for the
    /// end or beyond: the `before` of a drag placeholder (docs/protocol.md#6-presence-drag-state).
    public func itemID(at index: Int, in collection: CollectionID, excluding excluded: Set<ItemID> = []) -> ItemID? {
        guard index >= 0, let position = current.collectionIndex(of: collection) else { return nil }
        var remaining = index
        for handle in current.collections[position].order {
            let id = current.itemID(handle)
            if excluded.contains(id) { continue }
            if remaining == 0 { return id }
            remaining -= 1
        }
        return nil
    }
}

extension BoardEngine {
    /// Who other than `client` drags one of these items, a folder around one of them, or
    /// something inside one of them: a lease on a folder covers its contents
    /// (docs/protocol.md#6-presence-drag-state). Items not on the board are skipped.
    public func otherHolder(of items: [ItemID], for client: ClientID, in leases: LeaseTable) -> ClientID? {
        guard !leases.holders.isEmpty else { return nil }
        return heldByOther(items.compactMap(current.handle(of:)), client: client, leases: leases)?.1
    }
}
