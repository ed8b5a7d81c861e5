import ArgumentParser
import CorkboardBench
import WebSocketDeflate

/// `corkboard-bench model`: resolved operations per second of one board's sequencer.
struct ModelBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "model",
        abstract: "Resolve random moves on a 10 × 1,000 board with base seqs up to 100 behind.")

    @Option(help: "Number of operations to resolve.")
    var ops = 200_000

    @Option(help: "Seed of the random workload.")
    var seed: UInt64 = 1

    func run() throws {
        var configuration = ModelBenchmark.Configuration()
        configuration.operations = ops
        configuration.seed = seed
        let benchmark = ModelBenchmark(configuration: configuration)
        print("corkboard-bench model: \(configuration.collections) collections × \(configuration.itemsPerCollection) items, seed \(seed)")
        print(try benchmark.run())
    }
}

/// `corkboard-bench ws-echo`: WebSocket echo throughput against `/ws/echo`.
struct WebSocketEchoBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ws-echo",
        abstract: "Echo throughput: many clients, small messages, several in flight each.")

    /// `--url` of a server that echoes on `/ws/echo` (`corkboard-bench serve`, or a peer).
    @OptionGroup var target: SuiteTargetOptions
    @Option(help: "Client connections.") var connections = 100
    @Option(help: "Message size in bytes.") var size = 512
    @Option(help: "Messages outstanding per connection.") var inFlight = 8
    @Option(help: "Measured seconds (after one second of warm-up).") var seconds = 5.0

    func run() throws {
        var configuration = WebSocketEchoBenchmark.Configuration()
        configuration.url = target.url
        configuration.connections = connections
        configuration.size = size
        configuration.inFlight = inFlight
        configuration.seconds = seconds
        let result = try WebSocketEchoBenchmark(configuration: configuration).run { say($0) }
        say(result.text)
        try target.write([
            BenchRecord(
                server: target.server, scenario: "echo", variant: "\(connections) connections, \(size) B",
                figures: ["messages_per_second": result.messagesPerSecond])
        ])
    }
}

/// `corkboard-bench ws-fanout`: time until the last of N members receives a broadcast.
struct WebSocketFanoutBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ws-fanout",
        abstract: "Fan-out: one message to N connections, time until the last one has it.")

    @Option(help: "Server to measure, e.g. ws://127.0.0.1:8080 (one serving /ws/broadcast: corkboard-bench serve). Default: start one.")
    var url: String?
    @Option(help: "Member counts, comma-separated.") var steps = "1000,2000,5000,10000"
    @Option(help: "Broadcasts per step.") var rounds = 20
    @Option(help: "Message size in bytes.") var size = 128
    @Flag(help: "Members offer permessage-deflate.") var deflate = false

    func run() throws {
        var configuration = WebSocketFanoutBenchmark.Configuration()
        configuration.deflate = deflate
        configuration.url = url
        configuration.steps = steps.split(separator: ",").compactMap { Int($0) }
        configuration.rounds = rounds
        configuration.size = size
        print(try WebSocketFanoutBenchmark(configuration: configuration).run { print($0) })
    }
}

/// `corkboard-bench ws-memory`: server memory per idle WebSocket connection.
struct WebSocketMemoryBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ws-memory",
        abstract: "Server memory per connection, with permessage-deflate off, in memory mode or in speed mode.")

    @Option(help: "Connections.") var connections = 10_000
    @Option(help: "The server's --deflate mode: off, memory or speed.") var deflate = "memory"

    func run() throws {
        var configuration = WebSocketMemoryBenchmark.Configuration()
        configuration.connections = connections
        guard let mode = DeflateConfiguration.Mode(rawValue: deflate) else { throw ValidationError("--deflate must be off, memory or speed") }
        configuration.deflate = mode
        print(try WebSocketMemoryBenchmark(configuration: configuration).run { print($0) })
    }
}

/// `corkboard-bench hub`: moves through the collaboration hub, with growing numbers of members watching.
struct HubBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hub",
        abstract: "Writers move items on a 10 × 100 board while N members watch: committed moves/s, latency, fan-out.")

    @Option(help: "Server to measure, e.g. ws://127.0.0.1:8080 (in open mode). Default: start one with --no-demo.")
    var url: String?
    @Option(help: "Watching member counts, comma-separated; each step uses a fresh board.") var members = "1,100,1000"
    @Option(help: "Members that send moves (besides the watchers).") var writers = 8
    @Option(help: "Moves outstanding per writer.") var inFlight = 4
    @Option(help: "Moves per step, shared by the writers.") var ops = 20_000
    @Flag(help: "Members offer permessage-deflate.") var deflate = false

    func run() throws {
        var configuration = HubBenchmark.Configuration()
        configuration.url = url
        configuration.steps = members.split(separator: ",").compactMap { Int($0) }
        guard !configuration.steps.isEmpty, configuration.steps.allSatisfy({ $0 >= 1 }) else {
            throw ValidationError("--members must be comma-separated counts, e.g. 1,100,1000")
        }
        guard writers > 0, inFlight > 0, ops > 0 else { throw ValidationError("--writers, --in-flight and --ops must be at least 1") }
        configuration.writers = writers
        configuration.inFlight = inFlight
        configuration.operations = ops
        configuration.deflate = deflate
        print(try HubBenchmark(configuration: configuration).run { print($0) })
    }
}

/// `corkboard-bench durable`: durable committed ops/s and commit latency with the SQLite store (issue #8).
struct DurableBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "durable",
        abstract: "Moves on 1 and on 100 boards by 50 clients, against a fresh SQLite server per --sync mode: durable ops/s, latency to committed.")

    @Option(help: "Moves per scenario, shared by all connections.") var ops = 20_000
    @Option(help: "Concurrent clients.") var clients = 50
    @Option(help: "Board counts, comma-separated; each client opens ceil(boards / clients) connections, spread over the boards.")
    var boards = "1,100"
    @Option(help: "Moves outstanding per connection.") var inFlight = 1
    @Option(help: "The server's --sync modes, comma-separated (full, normal; memory: the in-memory store, for comparison).")
    var sync = "full,normal"
    @Option(help: "Fresh servers per sync mode, each running every board count.") var runs = 1
    @Option(help: "Longest wait in seconds for joining, and for a scenario's moves.") var timeout = 300.0
    @Flag(help: "Writers decode every event and apply it to a replica, as the browser does (costs this process per event × connections).")
    var replicas = false

    func run() throws {
        var configuration = DurableBenchmark.Configuration()
        configuration.boardCounts = boards.split(separator: ",").compactMap { Int($0) }
        guard !configuration.boardCounts.isEmpty, configuration.boardCounts.allSatisfy({ $0 >= 1 }) else {
            throw ValidationError("--boards must be comma-separated counts, e.g. 1,100")
        }
        configuration.syncModes = sync.split(separator: ",").map(String.init)
        guard !configuration.syncModes.isEmpty, configuration.syncModes.allSatisfy({ ["full", "normal", "memory"].contains($0) }) else {
            throw ValidationError("--sync must be full, normal or memory, comma-separated")
        }
        guard ops > 0, clients > 0, inFlight > 0, runs > 0, timeout > 0 else {
            throw ValidationError("--ops, --clients, --in-flight, --runs and --timeout must be positive")
        }
        configuration.operations = ops
        configuration.clients = clients
        configuration.inFlight = inFlight
        configuration.runs = runs
        configuration.timeout = timeout
        configuration.replicas = replicas
        print(try DurableBenchmark(configuration: configuration).run { print($0) })
    }
}
