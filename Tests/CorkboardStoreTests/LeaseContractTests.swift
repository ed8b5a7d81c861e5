import CorkboardModel
import CorkboardStore
import TestSupport
import Testing

/// Every store shared by nodes leases drags across them (docs/protocol.md, "Several nodes"):
/// the items of a drag of items or the columns of a drag of columns, wholly or not at all,
/// one drag per holder, a column's lease never an item's of the same id, read back by a node
/// that missed the drag's start, and given back.
@Suite(.threadsOfTheirOwn) struct LeaseContractTests {
    static let retention = LogRetention(retained: 100)

    static func leasing(_ store: any BoardStore) throws -> any ClusterSignals {
        try #require(store as? any ClusterSignals)
    }

    static func lease(_ store: any ClusterSignals, items: [ItemID], to holder: ClientID) throws -> ClientID? {
        try wait { store.lease(board: "board", items: items, holder: holder, $0) }.get()
    }

    static func lease(_ store: any ClusterSignals, columns: [CollectionID], to holder: ClientID) throws -> ClientID? {
        try wait { store.lease(board: "board", columns: columns, holder: holder, $0) }.get()
    }

    /// What `holder` holds, sorted.
    static func held(_ store: any ClusterSignals, by holder: ClientID) throws -> HeldLeases {
        let held = try wait { store.leases(board: "board", holder: holder, $0) }.get()
        return HeldLeases(items: held.items.sorted(), columns: held.columns.sorted())
    }

    @Test(arguments: StoreFactory.sharedByNodes) func columnsAreLeasedApartFromItems(_ factory: StoreFactory) throws {
        let opened = try factory.open(Self.retention)
        defer { opened.close() }
        let store = try Self.leasing(opened.store)

        // A card with a column's id, and that column, are two leases.
        #expect(try Self.lease(store, items: ["i1", "todo"], to: "ada") == nil)
        #expect(try Self.lease(store, columns: ["todo"], to: "bob") == nil)
        #expect(try Self.held(store, by: "ada") == HeldLeases(items: ["i1", "todo"]))
        #expect(try Self.held(store, by: "bob") == HeldLeases(columns: ["todo"]))

        // Wholly or not at all: a refused lease names the holder and takes nothing.
        #expect(try Self.lease(store, columns: ["done", "todo"], to: "cy") == "bob")
        #expect(try Self.lease(store, items: ["todo"], to: "cy") == "ada")
        #expect(try Self.held(store, by: "cy").isEmpty)
        #expect(try Self.lease(store, columns: ["done"], to: "cy") == nil)

        // One drag per holder: a new lease replaces the previous one, of either kind.
        #expect(try Self.lease(store, items: ["i2"], to: "bob") == nil)
        #expect(try Self.held(store, by: "bob") == HeldLeases(items: ["i2"]))
        #expect(try Self.lease(store, columns: ["todo"], to: "ada") == nil)
        #expect(try Self.held(store, by: "ada") == HeldLeases(columns: ["todo"]))
        #expect(try Self.lease(store, items: ["i1", "todo"], to: "dan") == nil)

        // Given back (the release has no answer: asked until granted, a bounded number of times).
        store.releaseLeases(board: "board", holder: "ada")
        var granted = false
        for _ in 0..<50 where !granted { granted = try Self.lease(store, columns: ["todo"], to: "bob") == nil }
        #expect(granted, "the released column was never free")
        #expect(try Self.held(store, by: "ada").isEmpty)
        #expect(try Self.held(store, by: "bob") == HeldLeases(columns: ["todo"]))
        // Leases are per board.
        #expect(try wait { store.lease(board: "other", columns: ["todo"], holder: "ada", $0) }.get() == nil)
    }
}
