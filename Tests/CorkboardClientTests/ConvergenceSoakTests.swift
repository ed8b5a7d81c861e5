import CorkboardClient
import CorkboardModel
import CorkboardWire
import Foundation
import TestSupport
import Testing

/// 20 bots on 3 boards of the real server: random moves (by anchor and by offsets), drags,
/// inserts, deletes and updates, into and out of folders too (folders in folders, folders
/// made, switched and deleted), with connections dropped at random under them. At the end
/// every replica is the server's board, every item is there once, the op log replays to the
/// board, and every operation that was committed is in the log exactly once.
///
/// A few seconds by default; `CORKBOARD_SOAK_SECONDS=300` for a long run
/// (`CORKBOARD_SOAK_SEED` repeats a run's random choices, as far as timing allows).
@Suite(.threadsOfTheirOwn) struct ConvergenceSoakTests {
    static let botCount = 20
    static let boardCount = 3

    /// One operation a bot sent and what came of it.
    struct Outcome: Sendable {
        let bot: Int
        let board: String
        let result: OperationResult
    }

    @Test func botsConvergeThroughRandomDisconnects() async throws {
        let environment = ProcessInfo.processInfo.environment
        let seconds = environment["CORKBOARD_SOAK_SECONDS"].flatMap(Double.init) ?? 3
        let seed = environment["CORKBOARD_SOAK_SEED"].flatMap(UInt64.init) ?? UInt64.random(in: 0 ... .max)
        let server = try CorkboardTestServer(demo: false)
        let boards = (0..<Self.boardCount).map { withFolders(makeBoard("soak\($0)", collections: 4, items: 6)) }
        for board in boards { try server.create(board) }

        // A proxy per bot, which breaks that bot's connection as a network failure would.
        let proxies = try (0..<Self.botCount).map { _ in try SeveringProxy(to: server.port) }
        let bots = (0..<Self.botCount).map { index in
            var configuration = server.configuration(board: boards[index % Self.boardCount].id, name: "bot\(index)", through: proxies[index])
            configuration.reconnectBackoff = Backoff(initial: 0.02, maximum: 0.3)
            return BoardClient(configuration)
        }
        let recorders = bots.map(EventRecorder.init)
        for bot in bots { try await bot.connect() }

        let deadline = ContinuousClock.now + .seconds(seconds)
        let outcomes = await withTaskGroup(of: [Outcome].self) { group in
            for (index, bot) in bots.enumerated() {
                group.addTask {
                    var player = SoakPlayer(bot: bot, proxy: proxies[index], number: index, seed: seed &+ UInt64(index))
                    var outcomes: [Outcome] = []
                    while ContinuousClock.now < deadline {
                        if let result = await player.act() {
                            outcomes.append(Outcome(bot: index, board: bot.configuration.board, result: result))
                        }
                    }
                    return outcomes
                }
            }
            return await group.reduce(into: []) { $0 += $1 }
        }

        let unanswered = outcomes.filter(\.result.isUnanswered)
        #expect(unanswered.isEmpty, "seed \(seed): unanswered \(unanswered.prefix(3))")
        #expect(outcomes.filter(\.result.isCommitted).count > Self.botCount, "seed \(seed): too few commits to mean anything")

        for (index, initial) in boards.enumerated() {
            let document = try server.document(initial.id)
            // Every item exactly once.
            let items = document.board.allItemIDs
            #expect(Set(items).count == items.count, "seed \(seed): \(initial.id) holds an item twice")

            // The log replays, from the board as created, to the board as it is.
            let log = try server.events(initial.id)
            #expect(log.map(\.seq) == Array(stride(from: 1, through: document.seq, by: 1)), "seed \(seed)")
            var replayed = initial
            for event in log {
                do { try replayed.apply(event.op) } catch { Issue.record("seed \(seed): event \(event.seq) of \(initial.id) does not apply: \(error)") }
            }
            #expect(replayed == document.board, "seed \(seed): the log of \(initial.id) does not replay to its board")

            // Exactly once: each opId once in the log; a commit is the log's event at its
            // seq; a noop or a rejection left no trace.
            #expect(Set(log.map(\.opId)).count == log.count, "seed \(seed): an opId of \(initial.id) was applied twice")
            let logged = Set(log.map(\.opId))
            for outcome in outcomes where outcome.board == initial.id {
                switch outcome.result {
                case .committed(let event):
                    #expect(log[event.seq - 1] == event, "seed \(seed): \(event.opId) is not in the log as answered")
                case .noop(let noop):
                    #expect(!logged.contains(noop.opId), "seed \(seed): noop \(noop.opId) was sequenced")
                case .rejected, .unanswered:
                    break
                }
            }

            // Every bot of the board holds exactly the server's board.
            for bot in bots.enumerated().filter({ $0.offset % Self.boardCount == index }).map(\.element) {
                let replica = await bot.waitForReplica(timeout: 15) { $0.seq >= document.seq }
                #expect(
                    replica == Replica(board: document.board, seq: document.seq),
                    "seed \(seed): \(bot.configuration.name) differs from the server (state \(bot.state))")
            }
        }
        // The drops happened and were resumed (not just re-snapshotted).
        let resumes = recorders.map { $0.count { if case .welcome(let welcome) = $0 { welcome.resumed } else { false } } }.reduce(0, +)
        #expect(resumes > 0, "seed \(seed): no connection was resumed")
        let committed = outcomes.filter(\.result.isCommitted).count
        let rejected = outcomes.filter { $0.result.rejection != nil }.count
        print("soak: \(seconds) s, seed \(seed): \(outcomes.count) operations, \(committed) committed, \(rejected) rejected, \(resumes) resumes")
        for bot in bots { await bot.close() }
        for proxy in proxies { proxy.stop() }
    }
}

/// One soak bot's random behaviour, read from its replica.
struct SoakPlayer {
    let bot: BoardClient
    /// The bot's own proxy to the server: severing it breaks this bot's connection only.
    let proxy: SeveringProxy
    let number: Int
    var random: SplitMix64
    var inserted = 0

    init(bot: BoardClient, proxy: SeveringProxy, number: Int, seed: UInt64) {
        self.bot = bot
        self.proxy = proxy
        self.number = number
        random = SplitMix64(seed: seed)
    }

    /// One action; nil when there was nothing to do (not joined yet, empty board).
    mutating func act() async -> OperationResult? {
        // A short think time: 20 bots on two cores with the server and other tests.
        try? await Task.sleep(for: .milliseconds(Int.random(in: 2...12, using: &random)))
        guard let board = bot.board, !board.allItemIDs.isEmpty else {
            try? await Task.sleep(for: .milliseconds(20))
            return nil
        }
        let operation: RequestedOperation
        switch Int.random(in: 0..<100, using: &random) {
        case 0..<30: operation = anchorMove(board)
        case 30..<45: operation = offsetsMove(board)
        case 45..<60: return await drag(board)
        case 60..<78: operation = insert(board)
        case 78..<90: operation = .delete(items: [board.allItemIDs.randomElement(using: &random)!])
        case 90..<93 where !board.folders.isEmpty:
            operation = .updateFolder(item: board.folders.keys.sorted().randomElement(using: &random)!, accepts: Int.random(in: 0..<3, using: &random) > 0)
        default:
            operation = .updateItem(
                item: board.allItemIDs.randomElement(using: &random)!, label: "by bot \(number)",
                data: Bool.random(using: &random) ? .replace(["n": .number(Double(inserted))]) : .remove)
        }
        // About one operation in twelve has its connection dropped under it, before, while or
        // after it goes out: the client must resume and resend, and the server apply it once.
        guard Int.random(in: 0..<12, using: &random) == 0 else { return await bot.perform(operation) }
        let delay = Int.random(in: 0...3, using: &random)
        async let result = bot.perform(operation)
        try? await Task.sleep(for: .milliseconds(delay))
        proxy.severAll()
        return await result
    }

    private mutating func anchorMove(_ board: Board) -> RequestedOperation {
        let count = Int.random(in: 1...2, using: &random)
        let sources = Array(board.allItemIDs.shuffled(using: &random).prefix(count))
        let collection = board.lists.randomElement(using: &random)!
        let anchors: [ItemID?] = collection.items.map(\.id) + [nil]
        return .move(sources: sources, destination: Destination(collection: collection.id, before: anchors.randomElement(using: &random)!))
    }

    private mutating func offsetsMove(_ board: Board) -> RequestedOperation {
        let source = board.lists.filter { !$0.items.isEmpty }.randomElement(using: &random)!
        let target = board.lists.randomElement(using: &random)!
        let offsets = Array(Array(source.items.indices).shuffled(using: &random).prefix(Int.random(in: 1...2, using: &random)))
        return .moveByOffsets(
            collection: source.id, fromOffsets: offsets.sorted(), toOffset: Int.random(in: 0...target.items.count, using: &random),
            toCollection: target.id)
    }

    private mutating func insert(_ board: Board) -> RequestedOperation {
        inserted += 1
        let collection = board.lists.randomElement(using: &random)!
        let before = (collection.items.map(\.id) + [nil]).randomElement(using: &random)!
        // One new item in six is a folder.
        let folder = Int.random(in: 0..<6, using: &random) == 0 ? Folder() : nil
        return .insert(
            items: [Item(id: "\(bot.configuration.board)-bot\(number)-new\(inserted)", label: "New \(inserted)", folder: folder)],
            destination: Destination(collection: collection.id, before: before))
    }

    /// drag.start, a few drag.over, and the drop as a move, as the browser does.
    private mutating func drag(_ board: Board) async -> OperationResult {
        let item = board.allItemIDs.randomElement(using: &random)!
        await bot.dragStart([item])
        var destination = Destination(collection: board.collections[0].id)
        for _ in 0..<Int.random(in: 1...3, using: &random) {
            try? await Task.sleep(for: .milliseconds(Int.random(in: 1...5, using: &random)))
            let current = bot.board ?? board
            let collection = current.lists.randomElement(using: &random)!
            let others = collection.items.map(\.id).filter { $0 != item }
            let index = Int.random(in: 0...others.count, using: &random)
            await bot.dragOver(collection: collection.id, index: index)
            destination = Destination(collection: collection.id, before: index < others.count ? others[index] : nil)
        }
        return await bot.perform(.move(sources: [item], destination: destination))
    }
}

/// `board` with a folder at the top of each column holding that column's first two cards, and
/// in the first column's folder another folder holding one more.
private func withFolders(_ board: Board) -> Board {
    var board = board
    for index in board.collections.indices {
        let id = "\(board.id)-folder\(index)"
        board.folders[id] = Array(board.collections[index].items.prefix(2))
        board.collections[index].items = [Item(id: id, label: "Folder \(index)", folder: Folder())] + board.collections[index].items.dropFirst(2)
    }
    let inner = "\(board.id)-inner"
    let moved = board.collections[1].items.removeLast()
    board.folders["\(board.id)-folder0", default: []].append(Item(id: inner, label: "Inner", folder: Folder()))
    board.folders[inner] = [moved]
    return board
}
