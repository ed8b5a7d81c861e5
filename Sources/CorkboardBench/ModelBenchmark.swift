import CorkboardModel
import Foundation

/// The model benchmark: how many operations per second one board's sequencer resolves
/// (issue 5). A board of 10 collections × 1,000 items takes random moves, half by
/// anchor and half by offsets, each with a base seq up to 100 behind the board.
public struct ModelBenchmark: Sendable {
    public struct Configuration: Sendable {
        public var collections = 10
        public var itemsPerCollection = 1_000
        public var operations = 200_000
        /// Base seqs are drawn from `seq - maximumLag ... seq`.
        public var maximumLag = 100
        public var seed: UInt64 = 1
        /// Share of moves sent in offsets form; the rest are anchor moves.
        public var offsetsShare = 0.5

        public init() {}
    }

    /// Counts and timings of one run. Times cover `BoardEngine.apply` only, not the
    /// generation of the requests.
    public struct Report: Sendable, CustomStringConvertible {
        public var operations = 0
        public var committed = 0
        public var noops = 0
        public var rejected = 0
        public var adjusted = 0
        public var anchorMoves = 0
        public var offsetsMoves = 0
        public var anchorSeconds = 0.0
        public var offsetsSeconds = 0.0
        public var finalSeq = 0

        public var seconds: Double { anchorSeconds + offsetsSeconds }
        public var operationsPerSecond: Double { Double(operations) / seconds }

        public var description: String {
            func rate(_ count: Int, _ seconds: Double) -> String {
                seconds > 0 ? String(format: "%.0f", Double(count) / seconds) : "-"
            }
            return """
                operations:        \(operations) (committed \(committed), noop \(noops), rejected \(rejected), adjusted \(adjusted))
                resolve time:      \(String(format: "%.3f", seconds)) s
                resolved ops/s:    \(rate(operations, seconds))
                  anchor moves:    \(anchorMoves) at \(rate(anchorMoves, anchorSeconds)) ops/s
                  offsets moves:   \(offsetsMoves) at \(rate(offsetsMoves, offsetsSeconds)) ops/s
                final seq:         \(finalSeq)
                """
        }
    }

    public var configuration: Configuration

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// Builds the board described by the configuration: collections `c0…`, items `c0-i0…`.
    public func makeBoard() -> Board {
        let collections = (0..<configuration.collections).map { column in
            BoardCollection(
                id: "c\(column)", title: "Collection \(column)",
                items: (0..<configuration.itemsPerCollection).map { Item(id: "c\(column)-i\($0)", label: "Item \($0)") })
        }
        return Board(id: "bench", title: "Benchmark", collections: collections)
    }

    public func run() throws -> Report {
        var engine = try BoardEngine(board: makeBoard())
        var random = SplitMix64(seed: configuration.seed)
        var workload = Workload(engine: engine, maximumLag: configuration.maximumLag)
        var report = Report()
        let clock = ContinuousClock()
        for number in 0..<configuration.operations {
            let byOffsets = Double.random(in: 0..<1, using: &random) < configuration.offsetsShare
            let request =
                byOffsets
                ? workload.offsetsMove(opId: "op-\(number)", engine: engine, using: &random)
                : workload.anchorMove(opId: "op-\(number)", engine: engine, using: &random)
            let start = clock.now
            let outcome = engine.apply(request, client: "bench", role: .editor)
            let elapsed = clock.now - start
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
            if byOffsets {
                report.offsetsMoves += 1
                report.offsetsSeconds += seconds
            } else {
                report.anchorMoves += 1
                report.anchorSeconds += seconds
            }
            report.operations += 1
            switch outcome {
            case .committed(let commit):
                report.committed += 1
                if commit.event.adjusted { report.adjusted += 1 }
                workload.record(commit.event, engine: engine)
            case .noop:
                report.noops += 1
                workload.recordNoop(engine: engine)
            case .rejected, .repeated:
                report.rejected += 1
            }
        }
        report.finalSeq = engine.seq
        return report
    }
}
