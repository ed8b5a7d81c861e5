import Foundation

/// One scenario's figures against one server: what `corkboard-bench fanout|ops|presence|memory`
/// writes with `--json`, and what `corkboard-bench report` turns into tables and a plot.
public struct BenchRecord: Codable, Sendable {
    /// The server measured, as named on the command line (`corkboard`, `hummingbird`, …).
    public var server: String
    /// `fanout`, `ops`, `presence` or `memory`.
    public var scenario: String
    /// A variant of the scenario (`1 board`, `deflate`, …); empty for none.
    public var variant: String
    /// Named figures, e.g. `capacity`, `ops_per_second`, `kib_per_connection`.
    public var figures: [String: Double]
    public var latency: LatencySummary?
    /// The fan-out scenario's steps.
    public var steps: [FanoutStep]?
    /// What a reader needs to judge the figures (limits hit, failures, settings).
    public var notes: [String]
    public var date: String

    public init(
        server: String, scenario: String, variant: String = "", figures: [String: Double] = [:],
        latency: LatencySummary? = nil, steps: [FanoutStep]? = nil, notes: [String] = []
    ) {
        self.server = server
        self.scenario = scenario
        self.variant = variant
        self.figures = figures
        self.latency = latency
        self.steps = steps
        self.notes = notes
        date = ISO8601DateFormatter().string(from: Date())
    }

    /// Writes `records` as pretty JSON to `path`, creating its folder.
    public static func write(_ records: [BenchRecord], to path: String) throws {
        let url = URL(fileURLWithPath: path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(records).write(to: url)
    }

    public static func read(from path: String) throws -> [BenchRecord] {
        try JSONDecoder().decode([BenchRecord].self, from: Data(contentsOf: URL(fileURLWithPath: path)))
    }
}

/// One step of the fan-out scenario: `clients` members on the board.
public struct FanoutStep: Codable, Sendable {
    public var clients: Int
    public var moves: Int
    /// From sending a move to the last member receiving its `committed`.
    public var latency: LatencySummary
    /// Events every member should have received in this step, and those that came twice or never.
    public var expectedDeliveries: Int
    public var duplicates: Int
    public var missing: Int
    public var joinSeconds: Double
    /// The CPU the server and the bench process spent on the step's moves (nil when the
    /// server's process could not be read; absent from records of older runs).
    public var serverCPUSeconds: Double?
    public var benchCPUSeconds: Double?

    public init(
        clients: Int, moves: Int, latency: LatencySummary, expectedDeliveries: Int, duplicates: Int, missing: Int,
        joinSeconds: Double, serverCPUSeconds: Double? = nil, benchCPUSeconds: Double? = nil
    ) {
        self.clients = clients
        self.moves = moves
        self.latency = latency
        self.expectedDeliveries = expectedDeliveries
        self.duplicates = duplicates
        self.missing = missing
        self.joinSeconds = joinSeconds
        self.serverCPUSeconds = serverCPUSeconds
        self.benchCPUSeconds = benchCPUSeconds
    }

    /// The CPU per delivery, for a progress line: `  server 1.9 µs, bench 1.7 µs a delivery`.
    var cpuText: String {
        guard let serverCPUSeconds, let benchCPUSeconds, expectedDeliveries > 0 else { return "" }
        let micros = 1e6 / Double(expectedDeliveries)
        return String(format: "  server %.2f µs, bench %.2f µs a delivery", serverCPUSeconds * micros, benchCPUSeconds * micros)
    }
}
