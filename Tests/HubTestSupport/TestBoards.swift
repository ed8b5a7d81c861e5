import CorkboardModel

/// The boards the hub's tests join.
public enum TestBoards {
    /// The standard board: "todo" holds i1…i5, "done" holds i6…i8; i1 carries data.
    public static let standard = Board(
        id: "board", title: "Test board",
        collections: [
            BoardCollection(
                id: "todo", title: "To do",
                items: [
                    Item(id: "i1", label: "One", data: ["n": .number(1), "tags": .array(["a", "b"])]),
                    Item(id: "i2", label: "Two"), Item(id: "i3", label: "Three"), Item(id: "i4", label: "Four"),
                    Item(id: "i5", label: "Five"),
                ]),
            BoardCollection(
                id: "done", title: "Done",
                items: [
                    Item(id: "i6", label: "Six"), Item(id: "i7", label: "Seven"), Item(id: "i8", label: "Eight"),
                ]),
        ])

    /// A board of `collections` collections of `itemsEach` items (c0…, c0-i0…).
    public static func grid(id: String = "board", collections: Int, itemsEach: Int) -> Board {
        Board(
            id: id, title: "Grid",
            collections: (0..<collections).map { c in
                BoardCollection(
                    id: "c\(c)", title: "Column \(c)",
                    items: (0..<itemsEach).map { i in
                        Item(id: "c\(c)-i\(i)", label: "Card \(c).\(i)")
                    })
            })
    }
}

extension Board {
    /// The ids of one collection's items, in order (empty if there is no such collection).
    public func ids(_ collection: CollectionID) -> [ItemID] {
        collections.first { $0.id == collection }?.items.map(\.id) ?? []
    }
}
