import CorkboardModel

/// The strategy of `corkboard bot random`: actions a person might take, chosen at random
/// (from a seed, so a run can be repeated) on the client's replica. Half are drags (a
/// drag.start, two to four drag.over, then the drop as a move, as the browser does), the
/// others a move by anchor or by offsets, to a column or a folder. Rejections (busy, a folder
/// into itself, …) are counted, not failures. With `dragsColumns` one action in five is a drag
/// of a column instead (a drag.start of the column, two to four drag.over among the columns,
/// then the drop as a `collection.move`).
public struct RandomPlayer {
    let client: BoardClient
    var random: SplitMix64
    /// Seconds between actions: a drag's pointer moves are spread over part of it.
    let interval: Double
    let dragsColumns: Bool
    public private(set) var tally = RandomPlayTally()

    public init(client: BoardClient, seed: UInt64, interval: Double, dragsColumns: Bool = false) {
        self.client = client
        random = SplitMix64(seed: seed)
        self.interval = interval
        self.dragsColumns = dragsColumns
    }

    /// One action on the board as the replica shows it; nothing when the board is locked,
    /// has no items or no collections.
    public mutating func act() async {
        guard let board = client.board, !board.locked, !board.allItemIDs.isEmpty, !board.collections.isEmpty else { return }
        tally.actions += 1
        let result: OperationResult
        switch Int.random(in: 0..<(dragsColumns ? 5 : 4), using: &random) {
        case 0, 1: result = await drag(board)
        case 2: result = await client.perform(anchorMove(board))
        case 3: result = await client.perform(offsetsMove(board) ?? anchorMove(board))
        default: result = await dragColumn(board)
        }
        tally.count(result)
    }

    /// Acts `rate` times a second (an action that takes longer delays the next) until
    /// `duration` seconds have passed; returns the seconds it took.
    public mutating func play(rate: Double, duration: Double) async -> Double {
        let start = ContinuousClock.now
        let end = start + .seconds(duration)
        var next = start
        while ContinuousClock.now < end {
            await act()
            next += .seconds(1 / rate)
            if next > ContinuousClock.now { try? await Task.sleep(until: next) }
        }
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    /// Pick up one card, hover over two to four places, drop it on the last one.
    private mutating func drag(_ board: Board) async -> OperationResult {
        tally.drags += 1
        let item = board.allItemIDs.randomElement(using: &random)!
        await client.dragStart([item])
        var target = Destination(collection: board.collections[0].id)
        for _ in 0..<Int.random(in: 2...4, using: &random) {
            try? await Task.sleep(for: .seconds(interval / 8))
            let current = client.board ?? board
            let collection = current.lists.randomElement(using: &random)!
            // The placeholder index counts the list without the dragged card (docs/protocol.md#6-presence-drag-state).
            let others = collection.items.map(\.id).filter { $0 != item }
            let index = Int.random(in: 0...others.count, using: &random)
            await client.dragOver(collection: collection.id, index: index)
            target = Destination(collection: collection.id, before: index < others.count ? others[index] : nil)
        }
        return await client.perform(.move(sources: [item], destination: target))
    }

    /// Pick up one column by its grip, hover over two to four places among the columns, drop
    /// it on the last one.
    private mutating func dragColumn(_ board: Board) async -> OperationResult {
        tally.drags += 1
        tally.columnDrags += 1
        let column = board.collections.randomElement(using: &random)!.id
        await client.dragStart(columns: [column])
        var before: CollectionID?
        for _ in 0..<Int.random(in: 2...4, using: &random) {
            try? await Task.sleep(for: .seconds(interval / 8))
            // The placeholder index counts the columns without the dragged one (docs/protocol.md#6-presence-drag-state).
            let others = (client.board ?? board).collections.map(\.id).filter { $0 != column }
            let index = Int.random(in: 0...others.count, using: &random)
            await client.dragOver(columnIndex: index)
            before = index < others.count ? others[index] : nil
        }
        return await client.perform(.moveCollections(collections: [column], before: before))
    }

    mutating func anchorMove(_ board: Board) -> RequestedOperation {
        let item = board.allItemIDs.randomElement(using: &random)!
        let collection = board.lists.randomElement(using: &random)!
        let anchors: [ItemID?] = collection.items.map(\.id).filter { $0 != item } + [nil]
        return .move(sources: [item], destination: Destination(collection: collection.id, before: anchors.randomElement(using: &random)!))
    }

    mutating func offsetsMove(_ board: Board) -> RequestedOperation? {
        guard let source = board.lists.filter({ !$0.items.isEmpty }).randomElement(using: &random) else { return nil }
        let target = board.lists.randomElement(using: &random)!
        let from = Int.random(in: 0..<source.items.count, using: &random)
        let to = Int.random(in: 0...target.items.count, using: &random)
        return .moveByOffsets(collection: source.id, fromOffsets: [from], toOffset: to, toCollection: target.id)
    }
}
