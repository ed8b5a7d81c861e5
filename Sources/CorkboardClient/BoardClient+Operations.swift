import CorkboardModel
import CorkboardWire

/// The operations (docs/protocol.md#4-operations) and the drag presence
/// (docs/protocol.md#6-presence-drag-state), typed.
///
/// Each operation gets an opId (`<prefix>-<n>`, or the caller's own `opId`, which makes a
/// retry across processes safe), and `baseSeq` = the replica's seq when it is first sent.
/// It waits until the server answers it — across reconnects, resent with the same opId —
/// and returns that answer.
extension BoardClient {
    /// Any operation, as `RequestedOperation` describes it. Once committed it is a step
    /// `undo()` can take back.
    public func perform(_ operation: RequestedOperation, opId: OperationID? = nil) async -> OperationResult {
        let before = board
        let result = await send(operation, opId: opId)
        recordForUndo(result, on: before)
        return result
    }

    /// Sends an operation without making it a step of its own (undo and redo send theirs so).
    func send(_ operation: RequestedOperation, opId: OperationID? = nil) async -> OperationResult {
        await withCheckedContinuation { continuation in
            core.loop.execute { self.core.submit(operation, opId: opId, continuation) }
        }
    }

    /// Moves `items` (in this order, contiguously) before `before` in `collection` (a column,
    /// or a folder's id: its contents), or to its end.
    public func move(
        _ items: [ItemID], to collection: CollectionID, before: ItemID? = nil,
        opId: OperationID? = nil
    ) async -> OperationResult {
        await perform(.move(sources: items, destination: Destination(collection: collection, before: before)), opId: opId)
    }

    /// A move as `Array.move(fromOffsets:toOffset:)` reads it, against the board at the
    /// replica's seq when sent: the items at `fromOffsets` of `collection` go to `toOffset`
    /// of `toCollection` (default: the same collection).
    public func move(
        in collection: CollectionID, fromOffsets: [Int], toOffset: Int, toCollection: CollectionID? = nil,
        opId: OperationID? = nil
    ) async -> OperationResult {
        await perform(.moveByOffsets(collection: collection, fromOffsets: fromOffsets, toOffset: toOffset, toCollection: toCollection), opId: opId)
    }

    /// Moves `items` into a folder (docs/model.md "Folders"): before `before` among what it
    /// holds, or at its end. A folder that does not accept drops, or a move that would put a
    /// folder inside itself or past 16 levels, is rejected `invalid`.
    public func move(
        _ items: [ItemID], into folder: ItemID, before: ItemID? = nil,
        opId: OperationID? = nil
    ) async -> OperationResult {
        await move(items, to: folder, before: before, opId: opId)
    }

    /// Inserts an empty folder before `before` in `collection` (a column or a folder), or at
    /// its end.
    public func addFolder(
        _ id: ItemID, label: String, into collection: CollectionID, before: ItemID? = nil, accepts: Bool = true,
        opId: OperationID? = nil
    ) async -> OperationResult {
        await insert([Item(id: id, label: label, folder: Folder(accepts: accepts))], into: collection, before: before, opId: opId)
    }

    /// Whether the folder takes items moved or inserted into it from elsewhere.
    public func setAccepts(_ accepts: Bool, folder: ItemID, opId: OperationID? = nil) async -> OperationResult {
        await perform(.updateFolder(item: folder, accepts: accepts), opId: opId)
    }

    /// Inserts new items before `before` in `collection` (a column or a folder), or at its end.
    public func insert(
        _ items: [Item], into collection: CollectionID, before: ItemID? = nil,
        opId: OperationID? = nil
    ) async -> OperationResult {
        await perform(.insert(items: items, destination: Destination(collection: collection, before: before)), opId: opId)
    }

    public func delete(_ items: [ItemID], opId: OperationID? = nil) async -> OperationResult {
        await perform(.delete(items: items), opId: opId)
    }

    /// Changes an item's label and/or data (`.unchanged`, `.replace(object)`, `.remove`).
    public func updateItem(
        _ item: ItemID, label: String? = nil, data: DataChange = .unchanged,
        opId: OperationID? = nil
    ) async -> OperationResult {
        await perform(.updateItem(item: item, label: label, data: data), opId: opId)
    }

    public func renameCollection(_ collection: CollectionID, to title: String, opId: OperationID? = nil) async -> OperationResult {
        await perform(.renameCollection(collection: collection, title: title), opId: opId)
    }

    /// Renames the board itself (an owner's act: an editor's is rejected `forbidden`).
    public func renameBoard(to title: String, opId: OperationID? = nil) async -> OperationResult {
        await perform(.renameBoard(title: title), opId: opId)
    }

    /// Adds an empty collection before `before`, or last.
    public func addCollection(
        _ collection: CollectionID, title: String, before: CollectionID? = nil,
        opId: OperationID? = nil
    ) async -> OperationResult {
        await perform(.addCollection(collection: collection, title: title, before: before), opId: opId)
    }

    /// Removes an empty collection (one with items is rejected `invalid`), or with `withItems`
    /// any, with everything in it (its folders' contents too), in one event.
    public func removeCollection(_ collection: CollectionID, withItems: Bool = false, opId: OperationID? = nil) async -> OperationResult {
        await perform(withItems ? .removeCollectionAndItems(collection: collection) : .removeCollection(collection: collection), opId: opId)
    }

    /// Moves columns (together, in this order) before the column `before`, or to the end; the
    /// server resolves a `before` removed or moved meanwhile as it does an item move's anchor.
    public func moveCollections(
        _ collections: [CollectionID], before: CollectionID? = nil, opId: OperationID? = nil
    ) async -> OperationResult {
        await perform(.moveCollections(collections: collections, before: before), opId: opId)
    }

    /// Locks or unlocks the board (owner only).
    public func setLocked(_ locked: Bool, opId: OperationID? = nil) async -> OperationResult {
        await perform(.lock(locked: locked), opId: opId)
    }

    public func lock(opId: OperationID? = nil) async -> OperationResult { await setLocked(true, opId: opId) }
    public func unlock(opId: OperationID? = nil) async -> OperationResult { await setLocked(false, opId: opId) }

    // MARK: Presence (docs/protocol.md#6-presence-drag-state)

    /// Picks `items` up. Success has no answer; a refusal comes as `BoardEvent.dragRejected`.
    /// Presence is never queued: returns false (nothing sent) when not joined. A drag does
    /// not survive a reconnect: the server clears it when the connection ends.
    @discardableResult
    public func dragStart(_ items: [ItemID]) async -> Bool {
        await core.onLoop { $0.sendPresence(.dragStart(items: items)) }
    }

    /// Picks `columns` up: a drag of columns, seen by the others live. Its placeholder is
    /// `dragOver(columnIndex:)`; the drop is a `moveCollections` of them.
    @discardableResult
    public func dragStart(columns: [CollectionID]) async -> Bool {
        await core.onLoop { $0.sendPresence(.dragStartColumns(collections: columns)) }
    }

    /// The placeholder of a drag of columns: `index` among the board's columns with the
    /// dragged ones left out (0…count).
    @discardableResult
    public func dragOver(columnIndex index: Int) async -> Bool {
        await core.onLoop { $0.sendPresence(.dragOver(collection: nil, index: index)) }
    }

    /// Marks `item` as the one whose label we edit, or (nil) ends our mark
    /// (docs/protocol.md#editing-marks). The server lets a mark lapse 30 s after it was last
    /// sent: send it again meanwhile while the edit lasts, and after a reconnect. Returns false
    /// (nothing sent) when not joined.
    @discardableResult
    public func setEditing(_ item: ItemID?) async -> Bool {
        await core.onLoop { $0.sendPresence(.editing(item: item)) }
    }

    /// The placeholder: `index` in `collection` with the dragged items left out (0…count).
    @discardableResult
    public func dragOver(collection: CollectionID, index: Int) async -> Bool {
        await core.onLoop { $0.sendPresence(.dragOver(collection: collection, index: index)) }
    }

    /// Asks for a page of the board's peers in join order (docs/protocol.md#peers-list): the
    /// answer comes as `BoardEvent.peersPage`, its peers added to `peers`. `after` is the
    /// previous page's `next`. Returns false (nothing sent) when not joined.
    @discardableResult
    public func listPeers(after: Int? = nil, limit: Int = MembershipLimits.defaultPage) async -> Bool {
        await core.onLoop { $0.sendPresence(.peersList(after: after, limit: limit)) }
    }

    /// Cancels the drag. Not needed after a drop committed with `move`: that ends it.
    @discardableResult
    public func dragEnd() async -> Bool {
        await core.onLoop { $0.sendPresence(.dragEnd) }
    }
}
