import CorkboardModel
import CorkboardWire
import Foundation
import TestSupport
import Testing

/// docs/protocol.md#1-the-model, "Replicas converge": every client that applies the
/// committed events in seq order to its snapshot holds exactly the server's board, here
/// with 8 clients (and an HTTP caller) moving at once.
@Suite(.threadsOfTheirOwn) struct HubConvergenceTests {
    enum Workload: String, Sendable, CaseIterable, CustomStringConvertible {
        /// Moves anywhere on a 4 × 8 board.
        case spread
        /// Everyone fights over the same five items: stale anchors, gathered sources, adjustments.
        case hotSpot
        var description: String { rawValue }
    }

    static let clientCount = 8
    static let opsPerClient = 50
    static let httpOps = 25

    /// A random move built from what this client's replica shows at its seq (the base it sends):
    /// half by anchor, half by offsets.
    static func randomMove(_ board: Board, workload: Workload, _ random: inout SplitMix64) -> RequestedOperation {
        let hot: Set<ItemID> = ["c0-i0", "c0-i1", "c1-i0", "c1-i1", "c2-i0"]
        let collections = board.collections
        if Bool.random(using: &random) {
            var candidates = board.allItemIDs
            if workload == .hotSpot { candidates = candidates.filter(hot.contains) }
            let count = Int.random(in: 1...min(3, candidates.count), using: &random)
            let sources = Array(candidates.shuffled(using: &random).prefix(count))
            let destination = collections.randomElement(using: &random)!
            var anchors: [ItemID?] = destination.items.map(\.id) + [nil]
            if workload == .hotSpot { anchors = anchors.filter { $0 == nil || hot.contains($0!) } + ["c0-i0", "c1-i1"] }
            return .move(sources: sources, destination: Destination(collection: destination.id, before: anchors.randomElement(using: &random)!))
        } else {
            let nonEmpty = collections.filter { !$0.items.isEmpty }
            let source = nonEmpty.randomElement(using: &random)!
            let offsetCount = Int.random(in: 1...min(3, source.items.count), using: &random)
            let offsets = Array(Array(source.items.indices).shuffled(using: &random).prefix(offsetCount))
            let target = collections.randomElement(using: &random)!
            let toOffset =
                workload == .hotSpot
                ? Int.random(in: 0...min(2, target.items.count), using: &random)
                : Int.random(in: 0...target.items.count, using: &random)
            return .moveByOffsets(
                collection: source.id, fromOffsets: offsets, toOffset: toOffset,
                toCollection: target.id == source.id && Bool.random(using: &random) ? nil : target.id)
        }
    }

    @Test(arguments: Workload.allCases)
    func eightClientsMovingAtOnceConverge(workload: Workload) throws {
        let board = HubFixture.grid(collections: 4, itemsEach: 8)
        let fixture = try HubFixture(board: board)
        let clients = try (0..<Self.clientCount).map { try fixture.join("client\($0)") }

        let failures = Locked<[String]>([])
        let tally = Locked<(committed: Int, noop: Int, rejected: [String])>((0, 0, []))
        let done = DispatchGroup()
        for (index, client) in clients.enumerated() {
            done.enter()
            let thread = Thread {
                defer { done.leave() }
                var random = SplitMix64(seed: UInt64(index + 1) * 7919 + (workload == .spread ? 0 : 1_000_003))
                do {
                    for _ in 0..<Self.opsPerClient {
                        // Built on whatever this replica has applied so far: often behind the server.
                        let operation = Self.randomMove(client.board, workload: workload, &random)
                        let answer = try client.perform(operation)
                        switch answer {
                        case .committed: tally.withLock { $0.committed += 1 }
                        case .noop: tally.withLock { $0.noop += 1 }
                        default: tally.withLock { $0.rejected.append("\(client.name): \(operation) → \(answer)") }
                        }
                    }
                } catch {
                    failures.withLock { $0.append("\(client.name): \(error)") }
                }
            }
            thread.start()
        }
        // And one HTTP caller, moving from snapshots it reads with GET.
        done.enter()
        let api = fixture.api
        Thread {
            defer { done.leave() }
            var random = SplitMix64(seed: 424_242)
            do {
                for round in 0..<Self.httpOps {
                    let document = try api.document(board.id)
                    let operation = Self.randomMove(document.board, workload: workload, &random)
                    let response = try api.perform(board.id, OperationRequest(opId: "http-\(workload)-\(round)", baseSeq: document.seq, operation))
                    switch try response.message() {
                    case .committed where response.status == 200: tally.withLock { $0.committed += 1 }
                    case .noop where response.status == 200: tally.withLock { $0.noop += 1 }
                    default: tally.withLock { $0.rejected.append("HTTP: \(operation) → \(response)") }
                    }
                }
            } catch {
                failures.withLock { $0.append("HTTP: \(error)") }
            }
        }.start()
        #expect(done.wait(timeout: .now() + 60) == .success, "the clients finished within a minute")
        let counts = tally.withLock { $0 }
        #expect(counts.rejected.isEmpty, "no move of existing items into existing collections is rejected: \(counts.rejected.prefix(5))")
        // A client that failed stopped early: the agreement below would only repeat its failure.
        let problems = failures.withLock { $0 }
        try #require(problems.isEmpty, "\(problems)")
        #expect(counts.committed + counts.noop + counts.rejected.count == Self.clientCount * Self.opsPerClient + Self.httpOps)

        let document = try fixture.expectAgreement(clients)
        #expect(document.seq == counts.committed, "every commit got its own seq")
        #expect(document.board.allItemIDs.sorted() == board.allItemIDs.sorted(), "every item exactly once")
        #expect(document.board.collections.map(\.id) == board.collections.map(\.id))
        // Everyone saw the same log, and it is the server's log.
        let log = try fixture.api.events(board.id, since: 0)
        #expect(log.map(\.seq) == (0..<document.seq).map { $0 + 1 })
        for client in clients {
            #expect(client.events == log, "\(client.name) applied exactly the server's events")
        }
        // The log applied to the starting board gives the server's board.
        var replay = Replica(board: board, seq: 0)
        for event in log { try replay.apply(event) }
        #expect(replay.board == document.board)
        if workload == .hotSpot {
            #expect(log.contains { $0.adjusted }, "contention produces some adjusted moves")
        }
        // And a newcomer's snapshot is the same board.
        #expect(try fixture.join("late").board == document.board)
    }
}
