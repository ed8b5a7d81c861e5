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

/// The items leased to live drags: item id -> the client holding it.
///
/// The hub owns the table (leases are presence, never persisted); the resolver only
/// reads it to answer `busy`, and reports which leased items a delete removed.
public struct LeaseTable: Sendable, Hashable {
    public private(set) var holders: [ItemID: ClientID]

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

    /// Ends every lease `client` holds (drag cleared for any reason).
    public mutating func releaseAll(heldBy client: ClientID) {
        holders = holders.filter { $0.value != client }
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
