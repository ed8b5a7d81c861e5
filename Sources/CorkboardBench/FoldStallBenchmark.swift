import CorkboardModel
import CorkboardStore
import Dispatch
import Foundation
import Synchronization

/// What one board's log folding costs the other boards of the same store (issue #31 item 2).
///
/// A "heavy" board of `items` cards with `idBytes`-byte ids in one column has its whole column
/// moved reversed, `moves` times (each move names every card: about `items × idBytes` bytes of
/// log), so its log passes the store's byte budget and is folded again and again; meanwhile a
/// "good" board commits one small move after another. The figure is the good board's commit
/// latency (append called to append answered): a fold that holds the store's writer shows as
/// its max. The store is driven directly, without a server, so nothing but the store is measured.
public struct FoldStallBenchmark {
    public struct Configuration: Sendable {
        public var items = 10_000
        public var idBytes = 100
        /// Whole-column reversals appended to the heavy board.
        public var moves = 160
        /// Reversals offered per second; 0 sends the next once the last was answered.
        public var movesPerSecond = 0.0
        public init() {}
    }

    public struct Result: Sendable {
        public var moves: Int
        /// The heavy board's commit latency.
        public var moveLatency: LatencySummary
        public var goodCommits: Int
        /// The good board's commit latency: the figure.
        public var goodLatency: LatencySummary
        /// The heavy board's snapshot seq at the end (how far its log was folded) and its seq.
        public var foldedThrough: Int
        public var seq: Int
        public var seconds: Double
    }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    public let configuration: Configuration
    public init(configuration: Configuration) { self.configuration = configuration }

    public func run(store: any BoardStore, progress: (String) -> Void) throws -> Result {
        let suffix = UUID().uuidString.prefix(8).lowercased()
        let heavyID = "fold-heavy-\(suffix)"
        let goodID = "fold-good-\(suffix)"
        let cards = (0..<configuration.items).map { number in
            let id = "card-\(number)-"
            return Item(id: id + String(repeating: "x", count: max(0, configuration.idBytes - id.utf8.count)), label: "card \(number)")
        }
        try Self.call {
            store.createBoard(
                Board(id: heavyID, title: "heavy", collections: [BoardCollection(id: "column", title: "column", items: cards)]), epoch: Epoch.make(), $0)
        }
        let goodCards = [Item(id: "a", label: "a"), Item(id: "b", label: "b")]
        try Self.call {
            store.createBoard(
                Board(id: goodID, title: "good", collections: [BoardCollection(id: "column", title: "column", items: goodCards)]), epoch: Epoch.make(), $0)
        }
        // The column reversed, then back: two operations taking turns.
        let ids = cards.map(\.id)
        let reversals = [
            BoardOperation.move(sources: ids.reversed(), destination: Destination(collection: "column")),
            .move(sources: ids, destination: Destination(collection: "column")),
        ]
        progress(
            "a board of \(configuration.items) cards with \(configuration.idBytes)-byte ids, its column reversed \(configuration.moves) times; another board committing meanwhile"
        )

        let heavyDone = Atomic<Bool>(false)
        let goodSamples = Mutex<[UInt64]>([])
        let goodFailure = Mutex<String?>(nil)
        let goodFinished = DispatchSemaphore(value: 0)
        Thread {
            defer { goodFinished.signal() }
            var seq = 0
            while !heavyDone.load(ordering: .acquiring) {
                let event = CommittedEvent(
                    seq: seq + 1, opId: "good-\(seq + 1)", client: "good",
                    op: .move(sources: [seq % 2 == 0 ? "a" : "b"], destination: Destination(collection: "column")), adjusted: false)
                let started = DispatchTime.now().uptimeNanoseconds
                do {
                    try Self.call { store.append(CommitBatch(board: goodID, expectedSeq: seq, events: [event]), $0) }
                } catch {
                    goodFailure.withLock { $0 = "\(error)" }
                    return
                }
                let took = DispatchTime.now().uptimeNanoseconds - started
                goodSamples.withLock { $0.append(took) }
                seq += 1
            }
        }.start()

        let started = DispatchTime.now().uptimeNanoseconds
        var moveSamples: [UInt64] = []
        var heavyFailure: Error?
        for number in 0..<configuration.moves {
            if configuration.movesPerSecond > 0 {
                let due = started + UInt64(Double(number) / configuration.movesPerSecond * 1e9)
                let now = DispatchTime.now().uptimeNanoseconds
                if due > now { Thread.sleep(forTimeInterval: Double(due - now) / 1e9) }
            }
            let event = CommittedEvent(
                seq: number + 1, opId: "reverse-\(number + 1)", client: "heavy", op: reversals[number % 2], adjusted: false)
            let sent = DispatchTime.now().uptimeNanoseconds
            do {
                try Self.call { store.append(CommitBatch(board: heavyID, expectedSeq: number, events: [event]), $0) }
            } catch {
                heavyFailure = error
                break
            }
            moveSamples.append(DispatchTime.now().uptimeNanoseconds - sent)
            if (number + 1) % 20 == 0 { progress("\(number + 1) reversals committed") }
        }
        heavyDone.store(true, ordering: .releasing)
        goodFinished.wait()
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        if let heavyFailure { throw Failure(description: "the heavy board's append failed: \(heavyFailure)") }
        if let failure = goodFailure.withLock({ $0 }) { throw Failure(description: "the good board's append failed: \(failure)") }

        // How far the log was folded: where the kept log starts.
        var foldedThrough = 0
        do {
            _ = try Self.call { store.events(board: heavyID, after: 0, limit: 1, $0) }
        } catch StoreError.pruned(let logStartsAfter) {
            foldedThrough = logStartsAfter
        }
        try Self.call { store.deleteBoard(heavyID, $0) }
        try Self.call { store.deleteBoard(goodID, $0) }
        let samples = goodSamples.withLock { $0 }
        return Result(
            moves: moveSamples.count, moveLatency: LatencySummary(nanoseconds: moveSamples), goodCommits: samples.count,
            goodLatency: LatencySummary(nanoseconds: samples), foldedThrough: foldedThrough,
            seq: moveSamples.count, seconds: seconds)
    }

    /// Calls the store and waits for its answer.
    private static func call<Value: Sendable>(
        _ body: (@escaping @Sendable (Swift.Result<Value, StoreError>) -> Void) -> Void
    ) throws -> Value {
        let answer = Mutex<Swift.Result<Value, StoreError>?>(nil)
        let answered = DispatchSemaphore(value: 0)
        body { result in
            answer.withLock { $0 = result }
            answered.signal()
        }
        answered.wait()
        return try answer.withLock { $0! }.get()
    }
}
