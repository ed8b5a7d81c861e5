import CorkboardModel
import Testing

/// Generated boards and random concurrent operation streams with random base seqs.
@Suite struct PropertyTests {
    /// Small windows make some base seqs fall outside the history; large ones never. With
    /// folders, the boards nest and the same properties hold: nothing lost or doubled, no
    /// folder inside itself, every replica equal to the server.
    @Test(arguments: [3, 1_000], [false, true])
    func concurrentClientsConvergeOnTheServersBoard(historyCapacity: Int, folders: Bool) throws {
        var tally: [String: Int] = [:]
        var folderTally: [String: Int] = [:]
        for seed in UInt64(1)...60 {
            var simulation = try Simulation(
                seed: seed &* 7919 &+ UInt64(historyCapacity) &+ (folders ? 1 : 0), historyCapacity: historyCapacity, folders: folders)
            var expectedIDs = Set(simulation.initialBoard.allItemIDs)
            for _ in 0..<80 {
                simulation.shuffleLeases()
                let index = Int.random(in: 0..<simulation.clients.count, using: &simulation.random)
                try simulation.catchUp(index)
                let request = simulation.makeRequest(for: index)
                let client = simulation.clients[index]
                let role: Role = Int.random(in: 0..<20, using: &simulation.random) == 0 ? .viewer : .owner
                let before = simulation.server.board
                let outcome = simulation.server.apply(request, client: client.id, role: role, leases: simulation.leases)
                tally[Self.kind(of: outcome), default: 0] += 1
                if folders { folderTally[Self.folderKind(of: outcome, before: before), default: 0] += 1 }
                switch outcome {
                case .committed(let commit):
                    let event = commit.event
                    #expect(event.seq == simulation.log.count + 1)
                    if case .moveByOffsets(let collection, let offsets, let toOffset, let toCollection) = request.operation {
                        try checkOffsetsReading(
                            collection: collection, offsets: offsets, toOffset: toOffset, toCollection: toCollection, event: event,
                            view: client.replica.board, board: before)
                    }
                    if case .moveCollectionsByOffsets(let offsets, let toOffset) = request.operation {
                        try checkColumnOffsetsReading(offsets: offsets, toOffset: toOffset, event: event, view: client.replica.board, board: before)
                    }
                    if case .moveCollections = event.op { tally["columns moved", default: 0] += 1 }
                    switch event.op {
                    case .insert(let items, _): expectedIDs.formUnion(items.map(\.id))
                    case .delete(let items):
                        // What was inside a deleted folder goes with it.
                        for id in items { expectedIDs.subtract(before.item(id).map { before.subtree(of: $0).map(\.id) } ?? [id]) }
                    case .removeCollectionAndItems(let id):
                        // So does what the removed column held, folders' contents too.
                        for item in before.collections.first(where: { $0.id == id })?.items ?? [] {
                            expectedIDs.subtract(before.subtree(of: item).map(\.id))
                        }
                        tally["column removed with items", default: 0] += 1
                    default: break
                    }
                    simulation.log.append(event)
                    simulation.boardsBySeq.append(simulation.server.board)
                case .noop(let noop):
                    #expect(noop.seq == simulation.log.count)
                    #expect(simulation.server.board == before)
                case .rejected, .repeated:
                    #expect(simulation.server.board == before)
                }
                // Every item id in exactly one collection; nothing lost or invented.
                let board = simulation.server.board
                #expect(board.validationProblems().isEmpty, "seed \(seed)")
                #expect(Set(board.allItemIDs) == expectedIDs, "seed \(seed)")
                #expect(board.allItemIDs.count == expectedIDs.count, "seed \(seed)")
            }
            try checkConvergence(&simulation, seed: seed)
        }
        // The streams must reach every branch, or the properties above prove little.
        for kind in ["committed", "adjusted", "noop", "busy", "gone", "invalid", "forbidden", "locked", "columns moved", "column removed with items"] {
            #expect(tally[kind, default: 0] > 0, "no \(kind) outcome in \(tally)")
        }
        if folders {
            for kind in ["into a folder", "folder moved", "folder deleted", "inside itself", "does not accept drops"] {
                #expect(folderTally[kind, default: 0] > 0, "no \(kind) outcome in \(folderTally)")
            }
        }
        let commits = tally["committed", default: 0] + tally["adjusted", default: 0]
        let outcomes = tally.values.reduce(0, +) - tally["columns moved", default: 0] - tally["column removed with items", default: 0]
        #expect(commits > outcomes / 2, "\(tally)")
    }

    private static func kind(of outcome: Outcome) -> String {
        switch outcome {
        case .committed(let commit): commit.event.adjusted ? "adjusted" : "committed"
        case .noop: "noop"
        case .rejected(let rejection): rejection.code.rawValue
        case .repeated: "repeated"
        }
    }

    /// The folder rules an outcome exercised, if any.
    private static func folderKind(of outcome: Outcome, before: Board) -> String {
        switch outcome {
        case .committed(let commit):
            switch commit.event.op {
            case .move(let sources, let destination):
                if sources.contains(where: { before.item($0)?.folder != nil }) { return "folder moved" }
                return before.folders[destination.collection] != nil ? "into a folder" : "other"
            case .delete(let items): return items.contains { before.item($0)?.folder != nil } ? "folder deleted" : "other"
            default: return "other"
            }
        case .rejected(let rejection):
            for rule in ["inside itself", "does not accept drops"] where rejection.message.contains(rule) { return rule }
            return "other"
        case .noop, .repeated: return "other"
        }
    }

    private func checkConvergence(_ simulation: inout Simulation, seed: UInt64) throws {
        let server = simulation.server
        // Replaying the committed log on the initial snapshot gives the server's board.
        var replayed = simulation.initialBoard
        for event in simulation.log { try replayed.apply(event.op) }
        #expect(replayed == server.board, "seed \(seed)")
        // Every client that applies the events in order ends equal to the server.
        for index in simulation.clients.indices {
            try simulation.catchUp(index, all: true)
            #expect(simulation.clients[index].replica.board == server.board, "seed \(seed)")
        }
        // The history reconstructs every seq it still reaches.
        for seq in server.oldestReachableSeq...server.seq {
            #expect(server.board(asOf: seq) == simulation.boardsBySeq[seq], "seed \(seed) seq \(seq)")
        }
        // A restore from the snapshot and the log is the same engine.
        let restored = try BoardEngine(snapshot: simulation.initialBoard, seq: 0, replaying: simulation.log)
        #expect(restored.board == server.board)
        // Reverting everything returns to the snapshot.
        var reverted = try BoardEngine(snapshot: simulation.initialBoard, seq: 0, replaying: simulation.log)
        try reverted.revert(after: 0)
        #expect(reverted.board == simulation.initialBoard)
    }

    /// A column offsets move names the columns the client saw at those offsets (those still
    /// columns), and the column at `toOffset` when it is still a column that is not moved.
    private func checkColumnOffsetsReading(offsets: [Int], toOffset: Int, event: CommittedEvent, view: Board, board: Board) throws {
        let move: (collections: [CollectionID], before: CollectionID?)? =
            if case .moveCollections(let collections, let before) = event.op { (collections, before) } else { nil }
        let (collections, before) = try #require(move, "a column offsets move was committed as \(event.op)")
        let seen = Set(offsets).sorted().map { view.collections[$0].id }
        let current = board.collections.map(\.id)
        #expect(collections == seen.filter(current.contains))
        if toOffset < view.collections.count {
            let anchor = view.collections[toOffset].id
            if current.contains(anchor), !collections.contains(anchor) { #expect(before == anchor) }
        }
        if let before { #expect(current.contains(before) && !collections.contains(before)) }
    }

    /// An offsets move names the items the client saw at those offsets, and the item
    /// at `toOffset` when it is still a non-source item of the destination.
    private func checkOffsetsReading(
        collection: CollectionID, offsets: [Int], toOffset: Int, toCollection: CollectionID?, event: CommittedEvent, view: Board, board: Board
    ) throws {
        let move: (sources: [ItemID], destination: Destination)? =
            if case .move(let sources, let destination) = event.op { (sources, destination) } else { nil }
        let (sources, destination) = try #require(move, "an offsets move was committed as \(event.op)")
        let source = try #require(view.list(named: collection), "the offsets name a list the client saw")
        let target = try #require(view.list(named: toCollection ?? collection), "the offsets name a list the client saw")
        let seen = Set(offsets).sorted().map { view.items(in: source)[$0].id }
        let current = Set(board.allItemIDs)
        #expect(sources == seen.filter { current.contains($0) })
        // `toOffset` at the end of the list names no item: nothing more to read.
        let targetItems = view.items(in: target)
        if toOffset < targetItems.count {
            let anchor = targetItems[toOffset].id
            if let now = board.location(of: anchor), board.listID(now.list) == destination.collection, !sources.contains(anchor) {
                #expect(destination.before == anchor)
            }
        }
    }
}
