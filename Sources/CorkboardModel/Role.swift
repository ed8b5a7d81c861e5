/// Who may do what (docs/protocol.md#3-joining), and who holds which items in a live drag
/// (docs/protocol.md#6-presence-drag-state).

/// A member's role on a board.
public enum Role: String, Sendable, Hashable, Codable, CaseIterable {
    /// Receives everything, changes nothing, may not drag.
    case viewer
    case editor
    /// An editor who may also lock and unlock the board.
    case owner

    /// May send operations other than `lock`, and drag.
    public var canEdit: Bool { self != .viewer }
    /// May send `lock`.
    public var canLock: Bool { self == .owner }
}

/// The items and columns leased to live drags: id -> the client holding it.
///
/// The hub owns the table (leases are presence, never persisted); the resolver only
/// reads it to answer `busy`, and reports which leased items a delete removed. Columns
/// are kept apart from items: a card may have a column's id.
public struct LeaseTable: Sendable, Hashable {
    public private(set) var holders: [ItemID: ClientID]
    /// The columns held by drags of columns.
    public private(set) var columnHolders: [CollectionID: ClientID] = [:]

    public init(holders: [ItemID: ClientID] = [:]) {
        self.holders = holders
    }

    public static let empty = LeaseTable()

    public func holder(of item: ItemID) -> ClientID? {
        holders[item]
    }

    /// Leases every item to `client`, or changes nothing and returns the first other
    /// holder found (the `holder` of a `drag.start` rejected `busy`).
    public mutating func acquire(_ items: [ItemID], for client: ClientID) -> ClientID? {
        for item in items {
            if let holder = holders[item], holder != client { return holder }
        }
        for item in items { holders[item] = client }
        return nil
    }

    /// Leases every column to `client`, or changes nothing and returns the first other
    /// holder found.
    public mutating func acquire(columns: [CollectionID], for client: ClientID) -> ClientID? {
        for column in columns {
            if let holder = columnHolders[column], holder != client { return holder }
        }
        for column in columns { columnHolders[column] = client }
        return nil
    }

    public func holder(ofColumn column: CollectionID) -> ClientID? {
        columnHolders[column]
    }

    /// Ends every lease `client` holds, items and columns (drag cleared for any reason).
    public mutating func releaseAll(heldBy client: ClientID) {
        holders = holders.filter { $0.value != client }
        columnHolders = columnHolders.filter { $0.value != client }
    }

    /// Ends the leases of these items, whoever holds them.
    public mutating func release(_ items: some Sequence<ItemID>) {
        for item in items { holders[item] = nil }
    }

    /// The items `client` holds, in no particular order.
    public func items(heldBy client: ClientID) -> [ItemID] {
        holders.compactMap { $0.value == client ? $0.key : nil }
    }
}
