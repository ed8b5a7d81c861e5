/// Operations as a client asks for them (docs/protocol.md#4-operations), before resolution.

/// What a client asked for. Unlike ``BoardOperation``, a move may come in offsets form.
public enum RequestedOperation: Sendable, Hashable {
    /// Move by anchor, shaped like SwiftUI's `ReorderDifference`.
    case move(sources: [ItemID], destination: Destination)
    /// Move by offsets, as `Array.move(fromOffsets:toOffset:)` reads them, against the
    /// board as of `baseSeq`. `toCollection` nil means `collection`.
    case moveByOffsets(collection: CollectionID, fromOffsets: [Int], toOffset: Int, toCollection: CollectionID?)
    case insert(items: [Item], destination: Destination)
    case delete(items: [ItemID])
    case updateItem(item: ItemID, label: String?, data: DataChange)
    /// Whether the folder accepts items dropped into it.
    case updateFolder(item: ItemID, accepts: Bool)
    case renameCollection(collection: CollectionID, title: String)
    /// The board's own title (an update naming neither an item nor a collection).
    case renameBoard(title: String)
    case addCollection(collection: CollectionID, title: String, before: CollectionID?)
    case removeCollection(collection: CollectionID)
    /// Remove a column with everything in it (`collection.remove` with `"withItems":true`).
    case removeCollectionAndItems(collection: CollectionID)
    /// Move columns by anchor: `collections` land contiguously, in this order, before the
    /// column `before` (nil: the end).
    case moveCollections(collections: [CollectionID], before: CollectionID?)
    /// Move columns by offsets, as `Array.move(fromOffsets:toOffset:)` reads them, against
    /// the board's columns as of `baseSeq`.
    case moveCollectionsByOffsets(fromOffsets: [Int], toOffset: Int)
    case lock(locked: Bool)

    /// Move, insert, delete, (item or folder) update and collection move carry the seq the client had applied; the
    /// other operations may omit it and it is ignored there (docs/protocol.md#4-operations).
    public var needsBaseSeq: Bool {
        switch self {
        case .move, .moveByOffsets, .insert, .delete, .updateItem, .updateFolder, .moveCollections,
            .moveCollectionsByOffsets:
            true
        case .renameCollection, .renameBoard, .addCollection, .removeCollection, .removeCollectionAndItems, .lock: false
        }
    }
}

/// One operation request: the client's opId, its base seq, and what it asks for.
public struct OperationRequest: Sendable, Hashable {
    public var opId: OperationID
    /// The last seq the client had applied. Required where `operation.needsBaseSeq`.
    public var baseSeq: Int?
    public var operation: RequestedOperation

    public init(opId: OperationID, baseSeq: Int? = nil, _ operation: RequestedOperation) {
        self.opId = opId
        self.baseSeq = baseSeq
        self.operation = operation
    }
}
