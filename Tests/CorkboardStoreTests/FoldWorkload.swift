import CorkboardModel

/// A board and a log of valid events of every kind for the fold's contract tests: whole
/// columns reversed, cards moved into and out of folders, folders inserted and deleted with
/// what they hold, labels and data changed, columns added, renamed and removed. Each event is
/// checked against the board as `Board.apply` leaves it, so the log applies one by one.
enum FoldWorkload {
    static func make(board id: String, cards: Int, events count: Int, idBytes: Int = 12, seed: UInt64) -> (board: Board, events: [CommittedEvent]) {
        var random = SplitMix64(seed: seed)
        func cardID(_ number: Int) -> ItemID {
            let id = "card-\(number)-"
            return id + String(repeating: "x", count: max(0, idBytes - id.utf8.count))
        }
        let perColumn = cards / 3
        let initial = Board(
            id: id, title: "Fold",
            collections: (0..<3).map { column in
                BoardCollection(
                    id: "col\(column)", title: "Column \(column)",
                    items: (0..<perColumn).map { Item(id: cardID(column * perColumn + $0), label: "card") })
            })
        var board = initial
        var events: [CommittedEvent] = []
        var fresh = 0
        while events.count < count {
            fresh += 1
            let operation = someOperation(on: board, fresh: fresh, using: &random)
            guard (try? board.apply(operation)) != nil else { continue }
            let seq = events.count + 1
            events.append(CommittedEvent(seq: seq, opId: "fold-\(seq)", client: "c1", op: operation, adjusted: false, at: 1_000 + seq, by: "Ann"))
        }
        return (initial, events)
    }

    private static func someOperation(on board: Board, fresh: Int, using random: inout SplitMix64) -> BoardOperation {
        func pick<T>(_ values: [T]) -> T? { values.isEmpty ? nil : values[Int.random(in: 0..<values.count, using: &random)] }
        let lists = board.lists.map(\.id)
        let items = board.allItemIDs
        let folders = board.folders.keys.sorted()
        switch Int.random(in: 0..<10, using: &random) {
        case 0, 1, 2:
            // The biggest list, reversed: a move naming every card of it.
            let longest = board.lists.max { $0.items.count < $1.items.count }!
            return .move(sources: longest.items.map(\.id).reversed(), destination: Destination(collection: longest.id))
        case 3:
            let sources = (0..<Int.random(in: 1...5, using: &random)).compactMap { _ in pick(items) }
            let target = pick(lists)!
            let anchor = pick(board.list(named: target).map { board.items(in: $0).map(\.id) } ?? [])
            return .move(sources: Array(Set(sources)).sorted(), destination: Destination(collection: target, before: anchor))
        case 4:
            return .insert(
                items: [Item(id: "new-\(fresh)", label: "New"), Item(id: "folder-\(fresh)", label: "Folder", folder: Folder())],
                destination: Destination(collection: pick(lists)!))
        case 5:
            // A folder goes with everything in it.
            return .delete(items: [pick(folders) ?? pick(items) ?? "none"])
        case 6:
            return .updateItem(item: pick(items) ?? "none", label: "L\(fresh)", data: .replace(["n": .number(Double(fresh))]))
        case 7:
            return .updateFolder(item: pick(folders) ?? "none", accepts: fresh % 2 == 0)
        case 8:
            return .addCollection(collection: "added-\(fresh)", title: "Added", before: board.collections.first?.id)
        default:
            if let empty = board.collections.first(where: \.items.isEmpty) { return .removeCollection(collection: empty.id) }
            return .renameCollection(collection: board.collections[0].id, title: "Renamed \(fresh)")
        }
    }
}
