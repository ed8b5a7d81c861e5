import ArgumentParser
import CorkboardBench
import Foundation

/// Prints a line at once, also when standard output is a pipe (a script following a long run).
func say(_ line: String) {
    print(line)
    fflush(nil)
}

/// Options every scenario of the comparison shares: which server, under which name, where the figures go.
struct SuiteTargetOptions: ParsableArguments {
    @Option(
        help:
            "Server to measure, e.g. ws://127.0.0.1:8080 (any server speaking the scenario's part of the protocol; for ws-echo, one echoing on /ws/echo). Default: start one (corkboard-bench serve)."
    )
    var url: String?
    @Option(help: "The server's name in the results.") var server = "corkboard"
    @Option(help: "Write the figures as JSON records to this file (see `corkboard-bench report`).") var json: String?

    func write(_ records: [BenchRecord]) throws {
        guard let json else { return }
        try BenchRecord.write(records, to: json)
    }
}

/// `corkboard-bench fanout`: clients that one board can serve under a broadcast latency limit.
struct FanoutBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fanout",
        abstract: "Fan-out capacity: clients join one board in steps; a few moves in flight; time until the last member has each committed.")

    @OptionGroup var target: SuiteTargetOptions
    @Option(help: "Clients added per step.") var step = 500
    @Option(help: "Most clients to try.") var maxClients = 10_000
    @Option(help: "Moves per step.") var moves = 100
    @Option(help: "Moves outstanding, each from a random client.") var inFlight = 4
    @Option(help: "p95 limit in milliseconds: the first step above it ends the run.") var limit = 250.0
    @Option(help: "The process id of the server at --url, to read its CPU per delivery at each step.") var pid: Int32?

    func run() throws {
        var configuration = FanoutScenario.Configuration()
        configuration.url = target.url
        configuration.pid = pid
        guard step > 0, maxClients >= step, moves > 0, inFlight > 0, limit > 0 else {
            throw ValidationError("--step, --moves, --in-flight and --limit must be positive, --max-clients at least --step")
        }
        configuration.step = step
        configuration.maxClients = maxClients
        configuration.movesPerStep = moves
        configuration.inFlight = inFlight
        configuration.limit = limit
        say("fanout against \(target.server): steps of \(step) clients, \(moves) moves per step, \(inFlight) in flight, p95 limit \(Int(limit)) ms")
        let result = try FanoutScenario(configuration: configuration).run { say($0) }
        say("\(target.server): capacity \(result.capacity) clients (\(result.stop))")
        try target.write([
            BenchRecord(
                server: target.server, scenario: "fanout", figures: ["capacity": Double(result.capacity), "limit_ms": limit],
                latency: result.steps.last(where: { $0.clients == result.capacity })?.latency, steps: result.steps,
                notes: [result.stop])
        ])
    }
}

/// `corkboard-bench ops`: committed moves per second on one board and on many.
struct OpsBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ops",
        abstract: "Committed moves/s and latency to the sender's committed: clients with one move in flight each, on 1 board and on 100.")

    @OptionGroup var target: SuiteTargetOptions
    @Option(help: "Clients, each keeping one move outstanding per connection.") var clients = 50
    @Option(help: "Board counts, comma-separated (with more boards than clients, one connection per board).") var boards = "1,100"
    @Option(help: "Moves per board count.") var moves = 20_000
    @Option(help: "--store of the server started when no --url is given: memory or sqlite.") var store = "memory"

    func run() throws {
        var configuration = OpsScenario.Configuration()
        configuration.url = target.url
        configuration.boardCounts = boards.split(separator: ",").compactMap { Int($0) }
        guard !configuration.boardCounts.isEmpty, configuration.boardCounts.allSatisfy({ $0 > 0 }), clients > 0, moves > 0 else {
            throw ValidationError("--boards must be comma-separated counts; --clients and --moves positive")
        }
        guard ["memory", "sqlite"].contains(store) else { throw ValidationError("--store must be memory or sqlite") }
        configuration.clients = clients
        configuration.moves = moves
        configuration.store = store
        say("ops against \(target.server)\(target.url == nil ? " (--store \(store))" : ""): \(clients) clients, \(moves) moves per board count")
        let variants = try OpsScenario(configuration: configuration).run { say($0) }
        try target.write(
            variants.map { variant in
                BenchRecord(
                    server: target.server, scenario: "ops", variant: "\(variant.boards) board\(variant.boards == 1 ? "" : "s")",
                    figures: [
                        "ops_per_second": variant.opsPerSecond, "connections": Double(variant.connections),
                        "noops": Double(variant.noops), "rejected": Double(variant.rejections.values.reduce(0, +)),
                    ],
                    latency: variant.latency,
                    notes: variant.rejections.isEmpty ? [] : ["rejected: \(variant.rejections)"])
            })
    }
}

/// `corkboard-bench heavy`: editors of big updates on one board, a good client on another.
struct HeavyEditorBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "heavy",
        abstract: "Editors offering big updates to one board: the server's memory, what it committed, and a good client's move latency on another board.")

    @OptionGroup var target: SuiteTargetOptions
    @Option(help: "Editors sending updates.") var editors = 3
    @Option(help: "Updates each editor offers per second.") var rate = 100.0
    @Option(help: "Bytes of data in each update.") var dataBytes = 60_000
    @Option(help: "Seconds the editors send.") var seconds = 15.0
    @Argument(parsing: .postTerminator, help: "Options for the server started when no --url is given, after --.") var serverOptions: [String] = []

    func run() throws {
        guard editors > 0, rate > 0, dataBytes > 0, seconds > 0 else { throw ValidationError("every figure must be positive") }
        var configuration = HeavyEditorScenario.Configuration()
        configuration.url = target.url
        configuration.serverArguments = serverOptions
        configuration.editors = editors
        configuration.updatesPerSecond = rate
        configuration.dataBytes = dataBytes
        configuration.seconds = seconds
        let result = try HeavyEditorScenario(configuration: configuration).run { say($0) }
        let megabytes = { (bytes: Int?) in bytes.map { String(format: "%.0f MB", Double($0) / 1e6) } ?? "?" }
        say("offered \(result.offered) updates, committed \(result.committed), dropped editors \(result.dropped.count)")
        say("server memory \(megabytes(result.residentBefore)) before, \(megabytes(result.residentPeak)) at its peak")
        say("good client: \(result.goodMoves) moves, \(result.goodLatency.text)")
        try target.write([
            BenchRecord(
                server: target.server, scenario: "heavy",
                figures: [
                    "offered": Double(result.offered), "committed": Double(result.committed),
                    "resident_before": Double(result.residentBefore ?? 0), "resident_peak": Double(result.residentPeak ?? 0),
                ],
                latency: result.goodLatency, notes: result.dropped)
        ])
    }
}

/// `corkboard-bench presence`: drag updates sustained with many draggers and watchers.
struct PresenceBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "presence",
        abstract: "Drag updates/s with 100 dragging clients and 1,000 watchers, and the delay from drag.over to the watchers' drag.")

    @OptionGroup var target: SuiteTargetOptions
    @Option(help: "Dragging clients (at most 100).") var draggers = 100
    @Option(help: "Watching clients.") var watchers = 1_000
    @Option(help: "drag.over per dragger per second.") var rate = 20.0
    @Option(help: "Measured seconds.") var seconds = 5.0
    @Flag(help: "Run once more with every member asking for compact drag batches (hello's \"presence\":\"compact\"), and compare the bytes.")
    var compact = false
    @Flag(help: "Each dragger sends at a phase of its own, spread over the interval, instead of all draggers at once.")
    var staggered = false

    func run() throws {
        guard (1...100).contains(draggers), watchers > 0, rate > 0, seconds > 0 else {
            throw ValidationError("--draggers must be 1…100; --watchers, --rate and --seconds positive")
        }
        var configuration = PresenceScenario.Configuration()
        configuration.url = target.url
        configuration.draggers = draggers
        configuration.watchers = watchers
        configuration.rate = rate
        configuration.seconds = seconds
        configuration.staggered = staggered
        // A server of its own runs twice, side by side: one message per drag change
        // (batching off), then the per-tick `drags` batches; with --compact a third time, the
        // batches in their compact form.
        var modes: [(name: String, arguments: [String], compact: Bool)] =
            target.url == nil
            ? [("single", ["--drag-batch-members", "0"], false), ("batched", ["--drag-batch-members", "1"], false)]
            : [("as served", [], false)]
        if compact { modes.append(target.url == nil ? ("compact", ["--drag-batch-members", "1"], true) : ("as served, compact", [], true)) }
        var records: [BenchRecord] = []
        var bytesPerChange: [Bool: Double] = [:]
        for mode in modes {
            configuration.serverArguments = mode.arguments
            configuration.compact = mode.compact
            say(
                "presence against \(target.server) (\(mode.name)): \(draggers) draggers at \(rate)/s\(staggered ? ", staggered" : ""), \(watchers) watchers, \(seconds) s"
            )
            let result = try PresenceScenario(configuration: configuration).run { say($0) }
            records.append(
                BenchRecord(
                    server: target.server, scenario: target.url == nil ? "presence-\(mode.name)" : "presence",
                    figures: [
                        "sent_per_second": result.sentPerSecond, "delivered_per_second": result.deliveredPerSecond,
                        "per_watcher_per_second": result.perWatcherPerSecond, "disconnected": Double(result.disconnected),
                        "messages_per_second": result.presenceMessagesPerSecond, "bytes_per_second": result.presenceBytesPerSecond,
                        "bytes_per_watcher_per_message": result.bytesPerWatcherPerMessage, "bytes_per_change": result.bytesPerChange,
                        "draggers": Double(draggers), "watchers": Double(watchers), "staggered": staggered ? 1 : 0,
                    ].merging(
                        [
                            "until_first_probe_p50_ms": result.untilFirstProbe?.p50, "until_first_probe_p95_ms": result.untilFirstProbe?.p95,
                            "after_first_probe_p50_ms": result.afterFirstProbe?.p50, "after_first_probe_p95_ms": result.afterFirstProbe?.p95,
                        ].compactMapValues { $0 }
                    ) { kept, _ in kept },
                    latency: result.latency))
            if mode.arguments != ["--drag-batch-members", "0"] { bytesPerChange[mode.compact] = result.bytesPerChange }
        }
        // Per change, then per tick of every dragger's move: the server's load changes how many
        // moves a tick folds, not what each costs.
        if let full = bytesPerChange[false], let compact = bytesPerChange[true], compact > 0 {
            say(
                String(
                    format: "bytes per watcher per tick of %d moves: %.0f full, %.0f compact (%.2f× fewer; %.1f and %.1f per change)",
                    draggers, full * Double(draggers), compact * Double(draggers), full / compact, full, compact))
        }
        try target.write(records)
    }
}

/// `corkboard-bench memory`: server memory per idle connection.
struct MemoryBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "memory",
        abstract: "Server RSS per idle connection: clients join boards and go quiet; with --deflate they offer permessage-deflate.")

    @OptionGroup var target: SuiteTargetOptions
    @Option(help: "The process id of the server at --url, to read its memory.") var pid: Int32?
    @Option(help: "Connections.") var connections = 10_000
    @Option(help: "Boards the connections are spread over.") var boards = 100
    @Flag(help: "Clients offer permessage-deflate.") var deflate = false

    func run() throws {
        guard connections > 0, boards > 0 else { throw ValidationError("--connections and --boards must be positive") }
        var configuration = MemoryScenario.Configuration()
        configuration.url = target.url
        configuration.pid = pid
        configuration.connections = connections
        configuration.boards = boards
        configuration.deflate = deflate
        say("memory against \(target.server): \(connections) connections over \(boards) boards, permessage-deflate \(deflate ? "offered" : "off")")
        let result = try MemoryScenario(configuration: configuration).run { say($0) }
        try target.write([
            BenchRecord(
                server: target.server, scenario: "memory", variant: deflate ? "deflate offered" : "no deflate",
                figures: [
                    "kib_per_connection": result.bytesPerConnection / 1024, "connections": Double(result.connections),
                    "rss_before_mb": Double(result.residentBefore) / 1e6, "rss_idle_mb": Double(result.residentIdle) / 1e6,
                    "deflate_negotiated": result.deflateNegotiated ? 1 : 0,
                ])
        ])
    }
}

/// `corkboard-bench report`: the tables, goals and plot of one comparison run.
struct ReportBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Merge the JSON records of a comparison run into results.json, README.md (tables, ratios, goals) and fanout.svg.")

    @Option(help: "Folder of the run's JSON record files.") var raw = "bench/results/raw"
    @Option(help: "Folder to write results.json, README.md and fanout.svg to.") var out = "bench/results"
    @Option(help: "A line describing the machine and the run, for the report's head.") var machine = ""

    func run() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: raw).filter { $0.hasSuffix(".json") }.sorted()
        guard !files.isEmpty else { throw ValidationError("no .json records in \(raw)") }
        let records = try files.flatMap { try BenchRecord.read(from: "\(raw)/\($0)") }
        let report = ComparisonReport(records: records)
        try BenchRecord.write(records, to: "\(out)/results.json")
        try report.markdown(title: "Corkboard beside the servers users would pick instead", machine: machine)
            .write(toFile: "\(out)/README.md", atomically: true, encoding: .utf8)
        try report.fanoutSVG().write(toFile: "\(out)/fanout.svg", atomically: true, encoding: .utf8)
        for line in report.goals() { say(line) }
        say("wrote \(out)/results.json, \(out)/README.md and \(out)/fanout.svg from \(records.count) records")
    }
}

/// `corkboard-bench cluster`: nodes sharing one PostgreSQL database (issue #13).
struct ClusterBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cluster",
        abstract:
            "Committed moves/s on one board with clients spread over 1 and 3 nodes on one PostgreSQL database, and the delay from a commit to its delivery on another node."
    )

    @Option(help: "The nodes' ws:// URLs, comma-separated; without them nodes are started here on --database-url.") var urls: String?
    @Option(help: "PostgreSQL URL for the nodes started here (each run uses a fresh board).") var databaseUrl: String?
    @Option(help: "Node counts, comma-separated.") var nodes = "1,3"
    @Option(help: "Board counts, comma-separated: client i moves on board i % boards.") var boards = "1"
    @Option(help: "The one --urls entry is a balancer in front of this many nodes (bench/cluster.sh --balancer).")
    var behind: Int?
    @Option(help: "Clients, spread round-robin over the nodes, one move in flight each.") var clients = 48
    @Option(help: "Moves per node count.") var moves = 10_000
    @Option(help: "Write the records as JSON to this file.") var json: String?

    func run() throws {
        var configuration = ClusterScenario.Configuration()
        configuration.urls = urls.map { $0.split(separator: ",").map(String.init) } ?? []
        configuration.databaseURL = databaseUrl
        configuration.nodeCounts = nodes.split(separator: ",").compactMap { Int($0) }
        configuration.boardCounts = boards.split(separator: ",").compactMap { Int($0) }
        let counts = configuration.nodeCounts + configuration.boardCounts
        guard !configuration.nodeCounts.isEmpty, !configuration.boardCounts.isEmpty, counts.allSatisfy({ $0 > 0 }), clients > 0, moves > 0
        else {
            throw ValidationError("--nodes and --boards must be comma-separated counts; --clients and --moves positive")
        }
        if let behind {
            guard behind > 0, configuration.urls.count == 1, configuration.nodeCounts == [1] else {
                throw ValidationError("--behind needs one --urls entry (the balancer) and --nodes 1")
            }
        }
        configuration.behind = behind
        guard !configuration.urls.isEmpty || databaseUrl != nil else { throw ValidationError("give --urls or --database-url") }
        configuration.clients = clients
        configuration.moves = moves
        say("cluster: \(clients) clients, \(moves) moves per variant")
        let variants = try ClusterScenario(configuration: configuration).run { say($0) }
        let records = variants.map { variant in
            let nodes = "\(variant.nodes) node\(variant.nodes == 1 ? "" : "s")\(variant.balanced ? " behind nginx" : "")"
            return BenchRecord(
                server: "corkboard", scenario: "cluster", variant: variant.boards == 1 ? nodes : "\(nodes), \(variant.boards) boards",
                figures: [
                    "ops_per_second": variant.opsPerSecond, "clients": Double(variant.clients), "boards": Double(variant.boards),
                    "noops": Double(variant.noops), "rejected": Double(variant.rejections.values.reduce(0, +)),
                    "cross_node_p50_ms": variant.crossNodeDelivery?.p50 ?? 0,
                    "cross_node_p99_ms": variant.crossNodeDelivery?.p99 ?? 0,
                ],
                latency: variant.commitLatency,
                notes: variant.rejections.isEmpty ? [] : ["rejected: \(variant.rejections)"])
        }
        if let json { try BenchRecord.write(records, to: json) }
    }
}
