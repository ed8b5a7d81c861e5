import CorkboardModel

/// What one holder leases on a board across nodes (`ClusterSignals.leases`): the items of
/// a drag of items, or the columns of a drag of columns, in no particular order. Kept
/// apart: a card may carry a column's id.
public struct HeldLeases: Sendable, Hashable {
    public var items: [ItemID]
    public var columns: [CollectionID]

    public init(items: [ItemID] = [], columns: [CollectionID] = []) {
        self.items = items
        self.columns = columns
    }

    /// Nothing held: the drag ended, or never started.
    public var isEmpty: Bool { items.isEmpty && columns.isEmpty }
}
