import CorkboardModel
import Testing

/// `FoldingBoard` is what the stores fold their logs with, in place of `Board.apply`: it must
/// make the same board of every operation, and refuse exactly the operations `Board.apply`
/// refuses, leaving the board as it was.
@Suite struct FoldingBoardTests {
    /// Random boards with folders in folders, and random operations on them: most valid, many
    /// naming what is not there, twice, a folder into itself, a column that is not empty.
    @Test func everyOperationMakesWhatBoardApplyMakes() {
        var random = SplitMix64(seed: 31)
        var applied = 0
        var refused = 0
        for round in 0..<150 {
            var plain = Simulation.randomBoard(using: &random, folders: true)
            var folding = FoldingBoard(plain)
            #expect(folding.board == plain, "round \(round): built")
            var fresh = 0
            for step in 0..<60 {
                let operation = RandomOperation.make(on: plain, fresh: &fresh, using: &random)
                var plainRefused = false
                do { try plain.apply(operation) } catch { plainRefused = true }
                var foldingRefused = false
                do { try folding.apply(operation) } catch { foldingRefused = true }
                #expect(plainRefused == foldingRefused, "round \(round) step \(step): \(operation)")
                #expect(folding.board == plain, "round \(round) step \(step): \(operation)")
                if plainRefused { refused += 1 } else { applied += 1 }
            }
        }
        // Both kinds must be frequent, or the comparison proves little.
        #expect(applied > 2_000 && refused > 2_000, "\(applied) applied, \(refused) refused")
    }

    /// A column of 2,000 cards reversed by one move, again and again: the same board as
    /// `Board.apply` makes, and the move names every card.
    @Test func wholeColumnReversalsMakeWhatBoardApplyMakes() throws {
        let cards = (0..<2_000).map { Item(id: "card-\($0)", label: "\($0)") }
        var plain = Board(id: "b", title: "B", collections: [BoardCollection(id: "c", title: "C", items: cards), BoardCollection(id: "d", title: "D")])
        var folding = FoldingBoard(plain)
        for round in 0..<4 {
            let order = plain.collections[0].items.map(\.id)
            let operation = BoardOperation.move(sources: order.reversed(), destination: Destination(collection: "c"))
            try plain.apply(operation)
            try folding.apply(operation)
            #expect(folding.board == plain, "round \(round)")
        }
        // Half of them before the other column's only card.
        try plain.apply(.insert(items: [Item(id: "last", label: "last")], destination: Destination(collection: "d")))
        try folding.apply(.insert(items: [Item(id: "last", label: "last")], destination: Destination(collection: "d")))
        let half = BoardOperation.move(
            sources: cards.map(\.id).filter { $0.hasSuffix("1") || $0.hasSuffix("3") }, destination: Destination(collection: "d", before: "last"))
        try plain.apply(half)
        try folding.apply(half)
        #expect(folding.board == plain)
        #expect(plain.collections[1].items.last?.id == "last")
    }
}

/// Operations made up against a board, valid or not, reaching every rule of `Board.apply`.
enum RandomOperation {
    static func make(on board: Board, fresh: inout Int, using random: inout SplitMix64) -> BoardOperation {
        let items = board.allItemIDs
        let folders = Array(board.folders.keys).sorted()
        let columns = board.collections.map(\.id)
        func pick<T>(_ values: [T]) -> T? { values.isEmpty ? nil : values[Int.random(in: 0..<values.count, using: &random)] }
        func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &random) < percent }
        func newID(_ prefix: String) -> String {
            fresh += 1
            return "\(prefix)\(fresh)"
        }
        /// An item id on the board, now and then one that is not.
        func someItem() -> ItemID { chance(8) ? newID("gone") : pick(items) ?? "none" }
        /// A list: a column or a folder, now and then something that is no list.
        func someList() -> String {
            if chance(5) { return pick(items) ?? "none" }
            if chance(5) { return newID("nolist") }
            return (chance(40) ? pick(folders) : nil) ?? pick(columns) ?? "none"
        }
        func someItems(_ most: Int) -> [ItemID] {
            var chosen = (0..<Int.random(in: 1...most, using: &random)).map { _ in someItem() }
            if chance(5), let first = chosen.first { chosen.append(first) }
            if chance(3) { chosen = [] }
            return chosen
        }
        func someDestination() -> Destination {
            let list = someList()
            let inList = board.list(named: list).map { board.items(in: $0).map(\.id) } ?? []
            let before: ItemID? = chance(40) ? nil : chance(80) ? pick(inList) : someItem()
            return Destination(collection: list, before: before)
        }
        switch Int.random(in: 0..<12, using: &random) {
        case 0, 1, 2:
            // A whole list moved, sometimes reversed, sometimes a few of anywhere.
            if chance(30), let list = board.list(named: someList()), !board.items(in: list).isEmpty {
                let ids = board.items(in: list).map(\.id)
                return .move(sources: chance(50) ? ids.reversed() : ids, destination: someDestination())
            }
            return .move(sources: someItems(5), destination: someDestination())
        case 3, 4:
            let count = Int.random(in: 0...3, using: &random)
            var inserted = (0..<count).map { _ in
                let id = chance(10) ? someItem() : chance(5) ? (pick(columns) ?? "none") : newID("new")
                return Item(id: id, label: "L", folder: chance(30) ? Folder(accepts: chance(50)) : nil)
            }
            if chance(5), let first = inserted.first { inserted.append(first) }
            return .insert(items: inserted, destination: someDestination())
        case 5, 6:
            return .delete(items: someItems(3))
        case 7:
            let data: DataChange = chance(30) ? .replace(["n": .number(Double(fresh))]) : chance(30) ? .remove : .unchanged
            return .updateItem(item: someItem(), label: chance(50) ? newID("label") : nil, data: data)
        case 8:
            return .updateFolder(item: chance(70) ? (pick(folders) ?? someItem()) : someItem(), accepts: chance(50))
        case 9:
            return chance(50) ? .renameCollection(collection: someList(), title: newID("T")) : .renameBoard(title: newID("B"))
        case 10 where chance(40):
            // Columns (now and then a folder's list, a repeat, or a moved anchor) reordered.
            var moved = (0..<Int.random(in: 1...3, using: &random)).map { _ in chance(85) ? pick(columns) ?? "none" : someList() }
            if chance(5) { moved = [] }
            return .moveCollections(collections: moved, before: chance(30) ? nil : chance(85) ? pick(columns) : someList())
        case 10:
            let id = chance(15) ? someList() : newID("col")
            return .addCollection(collection: id, title: "T", before: chance(50) ? nil : chance(80) ? pick(columns) : someList())
        default:
            // Empty columns exist only when added; a removal of a full one is refused.
            let empty = board.collections.filter(\.items.isEmpty).map(\.id)
            if chance(20) { return .lock(locked: chance(50)) }
            if chance(25) { return .removeCollectionAndItems(collection: chance(85) ? pick(columns) ?? "none" : someList()) }
            return .removeCollection(collection: (chance(60) ? pick(empty) : nil) ?? someList())
        }
    }
}
