import CorkboardModel

/// A simulated board session for the property tests: one server engine and a few
/// clients that each see the board at their own (lagging) seq and send operations
/// based on what they see, the way real clients race each other. With `folders`, boards
/// hold folders in folders, and clients insert, fill, move, empty and switch them.
struct Simulation {
    struct Client {
        var id: ClientID
        var replica: Replica
        var nextOp = 0
    }

    var random: SplitMix64
    var server: BoardEngine
    let initialBoard: Board
    var clients: [Client]
    var log: [CommittedEvent] = []
    /// The server's board after every seq, for checking reconstruction.
    var boardsBySeq: [Board]
    var leases = LeaseTable()
    private var nextNewItem = 0
    private var nextNewCollection = 0
    let folders: Bool

    init(seed: UInt64, historyCapacity: Int, folders: Bool = false) throws {
        random = SplitMix64(seed: seed)
        self.folders = folders
        let board = Self.randomBoard(using: &random, folders: folders)
        initialBoard = board
        server = try BoardEngine(board: board, historyCapacity: historyCapacity)
        clients = (0..<3).map { Client(id: "c\($0)", replica: Replica(board: board, seq: 0)) }
        boardsBySeq = [board]
    }

    static func randomBoard(using random: inout SplitMix64, folders: Bool = false) -> Board {
        var itemNumber = 0
        var contents: [ItemID: [Item]] = [:]
        // Up to three levels of folders; a folder's items are made like a column's.
        func someItems(depth: Int) -> [Item] {
            (0..<Int.random(in: 0...(depth == 1 ? 8 : 4), using: &random)).map { _ in
                itemNumber += 1
                let id = "it\(itemNumber)"
                guard folders, depth < 4, Int.random(in: 0..<4, using: &random) == 0 else { return Item(id: id, label: "Item \(itemNumber)") }
                contents[id] = someItems(depth: depth + 1)
                return Item(id: id, label: "Folder \(itemNumber)", folder: Folder(accepts: Int.random(in: 0..<5, using: &random) > 0))
            }
        }
        let collections = (0..<Int.random(in: 1...4, using: &random)).map { column in
            BoardCollection(id: "col\(column)", title: "Column \(column)", items: someItems(depth: 1))
        }
        return Board(id: "sim", title: "Simulation", collections: collections, folders: contents)
    }

    /// Lets a client apply some of the events it has not seen yet, in order.
    mutating func catchUp(_ index: Int, all: Bool = false) throws {
        let target = all ? log.count : Int.random(in: clients[index].replica.seq...log.count, using: &random)
        while clients[index].replica.seq < target {
            try clients[index].replica.apply(log[clients[index].replica.seq])
        }
    }

    /// A request that client `index` might plausibly send, built from its own view.
    mutating func makeRequest(for index: Int) -> OperationRequest {
        let view = clients[index].replica.board
        let base = clients[index].replica.seq
        clients[index].nextOp += 1
        let opId = "\(clients[index].id)-\(clients[index].nextOp)"
        let items = view.allItemIDs
        let collections = view.collections
        // Where items may go: the columns, and with folders the folders too.
        let lists = view.lists
        let roll = Int.random(in: 0..<100, using: &random)
        // Someone who sees a locked board mostly unlocks it, so streams are not all `locked`.
        if view.locked, roll < 60 { return OperationRequest(opId: opId, .lock(locked: false)) }
        // Every empty collection may be removed; someone then adds one, so the requests below
        // always have a collection to name.
        if collections.isEmpty {
            nextNewCollection += 1
            return OperationRequest(opId: opId, .addCollection(collection: "added\(nextNewCollection)", title: "Added", before: nil))
        }
        func someItems() -> [ItemID] {
            // Mostly real ids, sometimes a duplicate or one nobody has.
            var picked = (0..<Int.random(in: 1...3, using: &random)).compactMap { _ in items.randomElement(using: &random) }
            if Int.random(in: 0..<10, using: &random) == 0 { picked.append("ghost") }
            if let first = picked.first, Bool.random(using: &random) { picked.append(first) }
            return picked.isEmpty ? ["ghost"] : picked
        }
        func someDestination() -> Destination {
            let list = lists.randomElement(using: &random)!
            let before = Int.random(in: 0..<4, using: &random) == 0 ? nil : list.items.randomElement(using: &random)?.id
            return Destination(collection: list.id, before: before)
        }
        if folders, roll < 8 {
            let folderIDs = view.folders.keys.sorted()
            if roll < 4, let folder = folderIDs.randomElement(using: &random) {
                return OperationRequest(opId: opId, baseSeq: base, .updateFolder(item: folder, accepts: Bool.random(using: &random)))
            }
            nextNewItem += 1
            let folder = Item(id: "newfolder\(nextNewItem)", label: "New folder", folder: Folder(accepts: true))
            return OperationRequest(opId: opId, baseSeq: base, .insert(items: [folder], destination: someDestination()))
        }
        switch roll {
        case 0..<35:
            return OperationRequest(opId: opId, baseSeq: base, .move(sources: someItems(), destination: someDestination()))
        case 58..<65:
            // Columns reordered while others move items into, out of and between them.
            if Bool.random(using: &random) {
                var moved = (0..<Int.random(in: 1...2, using: &random)).map { _ in collections.randomElement(using: &random)!.id }
                if Int.random(in: 0..<8, using: &random) == 0 { moved.append("ghost") }
                let before = Int.random(in: 0..<4, using: &random) == 0 ? nil : collections.randomElement(using: &random)!.id
                return OperationRequest(opId: opId, baseSeq: base, .moveCollections(collections: moved, before: before))
            }
            let offsets = (0..<Int.random(in: 1...2, using: &random)).map { _ in Int.random(in: 0..<collections.count, using: &random) }
            return OperationRequest(
                opId: opId, baseSeq: base,
                .moveCollectionsByOffsets(fromOffsets: offsets, toOffset: Int.random(in: 0...collections.count, using: &random)))
        case 35..<58:
            guard let source = lists.filter({ !$0.items.isEmpty }).randomElement(using: &random) else { break }
            let target = lists.randomElement(using: &random)!
            let offsets = (0..<Int.random(in: 1...3, using: &random)).map { _ in Int.random(in: 0..<source.items.count, using: &random) }
            return OperationRequest(
                opId: opId, baseSeq: base,
                .moveByOffsets(
                    collection: source.id, fromOffsets: offsets, toOffset: Int.random(in: 0...target.items.count, using: &random),
                    toCollection: target.id == source.id && Bool.random(using: &random) ? nil : target.id))
        case 65..<77:
            nextNewItem += 1
            let id = Int.random(in: 0..<8, using: &random) == 0 ? (items.randomElement(using: &random) ?? "n") : "new\(nextNewItem)"
            return OperationRequest(opId: opId, baseSeq: base, .insert(items: [Item(id: id, label: "New")], destination: someDestination()))
        case 77..<87:
            return OperationRequest(opId: opId, baseSeq: base, .delete(items: someItems()))
        case 87..<91:
            let item = items.randomElement(using: &random) ?? "ghost"
            return OperationRequest(opId: opId, baseSeq: base, .updateItem(item: item, label: "L\(roll)", data: .replace(["n": .number(Double(roll))])))
        case 91..<94:
            nextNewCollection += 1
            return OperationRequest(
                opId: opId, .addCollection(collection: "added\(nextNewCollection)", title: "Added", before: collections.randomElement(using: &random)?.id))
        case 94..<96:
            let collection = collections.randomElement(using: &random)!
            // Now and then with its items, which goes whatever it holds.
            if Int.random(in: 0..<3, using: &random) == 0 { return OperationRequest(opId: opId, .removeCollectionAndItems(collection: collection.id)) }
            return OperationRequest(opId: opId, .removeCollection(collection: collection.id))
        case 96:
            return OperationRequest(opId: opId, .renameCollection(collection: collections.randomElement(using: &random)!.id, title: "T\(roll)"))
        case 97:
            return OperationRequest(opId: opId, .renameBoard(title: "Board \(opId)"))
        default:
            return OperationRequest(opId: opId, .lock(locked: !view.locked))
        }
        return OperationRequest(opId: opId, baseSeq: base, .move(sources: someItems(), destination: someDestination()))
    }

    /// Random drags come and go, so some moves meet `busy` and some deletes hit leases.
    mutating func shuffleLeases() {
        let items = server.board.allItemIDs
        guard let item = items.randomElement(using: &random) else { return }
        if Int.random(in: 0..<4, using: &random) == 0 {
            leases.release([item])
        } else if Int.random(in: 0..<6, using: &random) == 0 {
            _ = leases.acquire([item], for: clients.randomElement(using: &random)!.id)
        }
    }
}
