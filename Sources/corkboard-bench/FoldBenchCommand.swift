import ArgumentParser
import CorkboardBench
import CorkboardModel
import CorkboardPostgres
import CorkboardSQLite
import CorkboardStore
import Foundation

/// `corkboard-bench fold`: another board's commit latency while one board's log of
/// whole-column moves is folded again and again (issue #31 item 2), on the store alone.
struct FoldBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fold",
        abstract:
            "A 10,000-card board's column reversed again and again, its log folded past the byte budget: another board's commit latency meanwhile, on SQLite or PostgreSQL."
    )

    @Option(help: "The store: sqlite (in a fresh temporary directory) or postgres (needs --database-url).") var store = "sqlite"
    @Option(help: "PostgreSQL to use with --store postgres: a postgres:// URL or a libpq connection string.") var databaseURL: String?
    @Option(help: "Cards on the heavy board.") var items = 10_000
    @Option(help: "Bytes of each card's id.") var idBytes = 100
    @Option(help: "Whole-column reversals appended to the heavy board.") var moves = 160
    @Option(help: "Reversals per second; 0 sends each once the last was answered.") var rate = 0.0
    @Option(help: "The store's history byte budget (--max-history-bytes of serve).") var maxHistoryBytes = BoardEngine.defaultHistoryByteBudget
    @Option(help: "Write the figures as JSON records to this file (see `corkboard-bench report`).") var json: String?

    func run() throws {
        guard items > 0, idBytes > 0, moves > 0, rate >= 0, maxHistoryBytes > 0 else { throw ValidationError("every figure must be positive") }
        var configuration = FoldStallBenchmark.Configuration()
        configuration.items = items
        configuration.idBytes = idBytes
        configuration.moves = moves
        configuration.movesPerSecond = rate
        let opened: any BoardStore
        var directory: String?
        switch store {
        case "sqlite":
            let path = NSTemporaryDirectory() + "corkboard-fold-bench-" + UUID().uuidString
            directory = path
            opened = try SQLiteStore(directory: path, historyByteBudget: maxHistoryBytes)
        case "postgres":
            guard let databaseURL else { throw ValidationError("--store postgres needs --database-url") }
            var postgres = PostgresStore.Configuration(url: databaseURL)
            postgres.historyByteBudget = maxHistoryBytes
            opened = try PostgresStore.open(postgres)
        default:
            throw ValidationError("--store must be sqlite or postgres")
        }
        defer {
            opened.close()
            if let directory { try? FileManager.default.removeItem(atPath: directory) }
        }
        say("fold on \(store): history budget \(maxHistoryBytes) bytes")
        let result = try FoldStallBenchmark(configuration: configuration).run(store: opened) { say($0) }
        say(String(format: "%d reversals in %.1f s; the log folded through seq %d of %d", result.moves, result.seconds, result.foldedThrough, result.seq))
        say("heavy board's commits: \(result.moveLatency.text)")
        say("other board: \(result.goodCommits) commits, \(result.goodLatency.text)")
        if let json {
            try BenchRecord.write(
                [
                    BenchRecord(
                        server: "corkboard", scenario: "fold", variant: store,
                        figures: [
                            "moves": Double(result.moves), "seconds": result.seconds, "folded_through": Double(result.foldedThrough),
                            "heavy_p50_ms": result.moveLatency.p50, "heavy_max_ms": result.moveLatency.max,
                            "good_commits": Double(result.goodCommits),
                        ],
                        latency: result.goodLatency)
                ], to: json)
        }
    }
}
