import CorkboardModel
import Dispatch
import Foundation
import Glibc
import Sockets
import Synchronization
import WebSocket

/// Durable committed operations (issue #8): for each `--sync` mode a fresh `corkboard-bench serve`
/// with the SQLite store, and for each board count a fixed number of moves sent by `clients`
/// clients, each keeping `inFlight` moves outstanding per connection. A `committed` answer
/// leaves the server only once its batch is durable, so the latency from sending a move to
/// its own `committed` includes the group commit's wait and the transaction (and its fsync
/// with `--sync full`).
///
/// Clients and boards: with B boards and C clients, each client opens `ceil(B / C)`
/// connections (at least one), connection j of client i to board `(i × k + j) mod B`: one
/// board gets all 50 connections; 100 boards get one connection each from 50 clients × 2.
public struct DurableBenchmark {
    public struct Configuration: Sendable {
        /// `full`, `normal`, or `memory` (the in-memory store, for comparison: not durable).
        public var syncModes = ["full", "normal"]
        public var boardCounts = [1, 100]
        public var clients = 50
        /// Moves outstanding per connection.
        public var inFlight = 1
        /// Moves per scenario, shared by every connection: a fixed amount of work, not a duration.
        public var operations = 20_000
        /// Fresh servers per sync mode (each runs every scenario), for the spread of the figures.
        public var runs = 1
        /// Writers decode every event and apply it to a replica (`HubWriter`, as the browser
        /// does) instead of finding their own answers by their bytes.
        public var replicas = false
        public var collections = 10
        public var itemsPerCollection = 100
        public var clientLoops = 2
        public var seed: UInt64 = 1
        /// Longest wait for any one phase of a scenario (joining, the moves).
        public var timeout = 300.0
        public init() {}
    }

    public let configuration: Configuration
    public init(configuration: Configuration) { self.configuration = configuration }

    private static let widths = [6, 8, 7, 8, 11, 8, 8, 8, 8, 10, 14, 9, 10]

    public func run(progress: (String) -> Void) throws -> String {
        let loops = IOLoopGroup(count: configuration.clientLoops)
        var options = WebSocketOptions()
        options.maxMessageSize = 16 << 20
        options.closeTimeout = .seconds(30)
        let mappings = configuration.boardCounts.map { boards in
            let perClient = connectionsPerClient(boards: boards)
            let connections = configuration.clients * perClient
            let perBoard = connections % boards == 0 ? "\(connections / boards)" : "\(connections / boards)–\(connections / boards + 1)"
            return "\(boards) board\(boards == 1 ? "" : "s"): \(configuration.clients) clients × \(perClient) connection\(perClient == 1 ? "" : "s")"
                + " = \(connections) connections, \(perBoard) per board"
        }
        var lines = [
            "durable: SQLite store, \(configuration.collections) × \(configuration.itemsPerCollection) boards (fresh per scenario), "
                + "\(configuration.operations) moves per scenario, \(configuration.inFlight) in flight per connection, "
                + (configuration.replicas ? "writers apply every event to a replica" : "writers read only their own answers"),
            "  " + mappings.joined(separator: "; "),
            "  latency: a move sent → its own committed (durable); server c→b: mean commit-to-broadcast from /metrics; "
                + "CPU: seconds used by the server / by this bench during the moves",
            Self.row([
                "sync", "boards", "conns", "ops", "durable/s", "p50 ms", "p99 ms", "max ms", "c→b ms", "noop/rej",
                "CPU s", "RSS", "db+wal",
            ]),
        ]
        for run in 1...max(1, configuration.runs) {
            for mode in configuration.syncModes {
                // "memory": the in-memory store, for comparison (answers are not durable).
                let store = mode == "memory" ? ["--store", "memory"] : ["--sync", mode]
                let target = try BenchTarget(url: nil, serverArguments: ["--no-demo", "--op-rate", "0"] + store)
                progress("run \(run), \(store.joined(separator: " ")): server on port \(target.port)")
                for boards in configuration.boardCounts {
                    let line = try scenario(
                        mode: mode, boards: boards, target: target, loops: loops, options: options,
                        progress: progress)
                    lines.append(line)
                    progress(line)
                    // The scenario's connections have just closed; let the server settle.
                    Thread.sleep(forTimeInterval: 1)
                }
            }
        }
        return lines.joined(separator: "\n")
    }

    private func connectionsPerClient(boards: Int) -> Int {
        max(1, (boards + configuration.clients - 1) / configuration.clients)
    }

    private func scenario(
        mode: String, boards: Int, target: BenchTarget, loops: IOLoopGroup, options: WebSocketOptions,
        progress: (String) -> Void
    ) throws -> String {
        let tag = UUID().uuidString.prefix(6).lowercased()
        let boardIDs = (0..<boards).map { "durable-\(mode)-\(boards)-\(tag)-\($0)" }
        for id in boardIDs { try HubBenchmark.create(makeBoard(id: id), target: target, loop: loops.next()) }

        let perClient = connectionsPerClient(boards: boards)
        let gate = JoinGate(window: 100)
        let done = DispatchGroup()
        let budget = MoveBudget(configuration.operations)
        var writers: [any DurableClient] = []
        for client in 0..<configuration.clients {
            for connection in 0..<perClient {
                let number = client * perClient + connection
                let board = boardIDs[number % boards]
                let hello = helloText(board: board, name: "d\(client)")
                let seed = configuration.seed &+ UInt64(number)
                if configuration.replicas {
                    writers.append(
                        HubWriter(
                            number: number, loop: loops.next(), hello: hello, gate: gate, budget: budget,
                            inFlight: configuration.inFlight, seed: seed, done: done))
                } else {
                    writers.append(
                        DurableWriter(
                            number: number, loop: loops.next(), hello: hello, gate: gate, budget: budget,
                            inFlight: configuration.inFlight, seed: seed, done: done,
                            collections: configuration.collections, items: configuration.itemsPerCollection))
                }
            }
        }
        let sockets = try join(writers, target: target, options: options, gate: gate)
        defer { for socket in sockets { socket.close() } }
        progress("  \(writers.count) connections joined \(boards) board\(boards == 1 ? "" : "s")")

        let metricsBefore = try? ServerFigures.read(target: target, loop: loops.next())
        let cpuBefore = (server: Self.serverCPUSeconds(target), bench: Self.ownCPUSeconds())
        let started = DispatchTime.now().uptimeNanoseconds
        for writer in writers { writer.start() }
        guard done.wait(timeout: .now() + configuration.timeout) == .success else {
            throw BenchTarget.Failure(description: "the writers did not finish \(configuration.operations) moves in \(Int(configuration.timeout)) s")
        }
        let cpuAfter = (server: Self.serverCPUSeconds(target), bench: Self.ownCPUSeconds())
        let metricsAfter = try? ServerFigures.read(target: target, loop: loops.next())

        let reports = writers.compactMap { $0.finalReport() }
        if let failure = reports.compactMap(\.failure).first { throw BenchTarget.Failure(description: failure) }
        let latencies = Percentiles(reports.flatMap(\.latencies))
        let lastAnswer = reports.map(\.lastAnswer).max() ?? started
        let seconds = Double(lastAnswer - started) / 1e9
        let rejections = reports.reduce(into: [String: Int]()) { $0.merge($1.rejections, uniquingKeysWith: +) }
        let noops = reports.reduce(0) { $0 + $1.noops }

        var commitToBroadcast = "-"
        if let before = metricsBefore, let after = metricsAfter, after.commitToBroadcastCount > before.commitToBroadcastCount {
            let mean =
                (after.commitToBroadcastSum - before.commitToBroadcastSum)
                / Double(after.commitToBroadcastCount - before.commitToBroadcastCount)
            commitToBroadcast = String(format: "%.2f", mean * 1000)
        }
        let cpu: String
        if let serverBefore = cpuBefore.server, let serverAfter = cpuAfter.server {
            cpu = String(format: "%.1f / %.1f", serverAfter - serverBefore, cpuAfter.bench - cpuBefore.bench)
        } else {
            cpu = String(format: "- / %.1f", cpuAfter.bench - cpuBefore.bench)
        }
        func milliseconds(_ fraction: Double) -> String { String(format: "%.2f", latencies.value(fraction) * 1000) }
        var line = Self.row(
            [
                mode, String(boards), String(writers.count), String(latencies.sorted.count),
                String(format: "%.0f", Double(latencies.sorted.count) / seconds),
                milliseconds(0.5), milliseconds(0.99), milliseconds(1), commitToBroadcast,
                "\(noops)/\(rejections.values.reduce(0, +))", cpu,
                target.serverResidentBytes.map { String(format: "%.0f MB", Double($0) / 1e6) } ?? "-",
                Self.databaseBytes(target).map { String(format: "%.1f MB", Double($0) / 1e6) } ?? "-",
            ])
        if !rejections.isEmpty { line += "   rejected: \(rejections.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))" }
        return line
    }

    private static func row(_ cells: [String]) -> String {
        zip(cells, widths).map { String(repeating: " ", count: max(1, $1 - $0.count)) + $0 }.joined()
    }

    /// Collections `c0…` of items `c0-i0…`, like the hub benchmark's board.
    private func makeBoard(id: String) -> Board {
        Board(
            id: id, title: "Durable benchmark",
            collections: (0..<configuration.collections).map { column in
                BoardCollection(
                    id: "c\(column)", title: "Collection \(column)",
                    items: (0..<configuration.itemsPerCollection).map { Item(id: "c\(column)-i\($0)", label: "Item \($0)") })
            })
    }

    /// Opens a WebSocket to `/ws` for each writer on its own loop, at most the gate's window
    /// joining at a time; returns once every writer has its welcome.
    private func join(
        _ writers: [any DurableClient], target: BenchTarget, options: WebSocketOptions,
        gate: JoinGate
    ) throws -> [WebSocketConnection] {
        let sockets = Mutex<[WebSocketConnection]>([])
        for writer in writers {
            gate.enter()
            WebSocketClient.connect(
                host: target.host, port: target.port, path: "/ws", subprotocols: ["corkboard.v1"],
                options: options, loop: writer.loop, handler: writer
            ) { result in
                switch result {
                case .success(let socket): sockets.withLock { $0.append(socket) }
                case .failure(let error): gate.finish("cannot connect: \(error)")
                }
            }
        }
        do {
            try gate.waitForAll(writers.count, timeout: configuration.timeout)
        } catch {
            for socket in sockets.withLock({ $0 }) { socket.close() }
            throw error
        }
        return sockets.withLock { $0 }
    }

    /// `corkboard.sqlite` plus its `-wal`, in bytes.
    private static func databaseBytes(_ target: BenchTarget) -> Int? {
        guard let folder = target.dataDirectory else { return nil }
        let sizes = ["corkboard.sqlite", "corkboard.sqlite-wal"].compactMap {
            (try? FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent($0).path))?[.size] as? Int
        }
        return sizes.isEmpty ? nil : sizes.reduce(0, +)
    }

    /// User plus system CPU seconds of the server child, from `/proc/PID/stat`.
    static func serverCPUSeconds(_ target: BenchTarget) -> Double? {
        guard let pid = target.serverProcessID,
            let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return nil }
        // Fields after the command's closing parenthesis start at field 3 (state); utime and stime are 14 and 15.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// User plus system CPU seconds of this process (the bench's clients).
    private static func ownCPUSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }
}

/// A writer of the durable benchmark: `HubWriter` (full client) or `DurableWriter` (lean).
protocol DurableClient: WebSocketHandler, Sendable {
    var loop: IOLoop { get }
    func start()
    /// Set once the writer has finished (or failed).
    func finalReport() -> HubWriter.Report?
}

extension HubWriter: DurableClient {
    func finalReport() -> HubWriter.Report? { report.withLock { $0 } }
}

/// A writer that does not follow the board: it moves a random item to the end of a random
/// collection (valid whatever the board looks like), with `baseSeq` the highest seq it has
/// seen, and finds its own answers by their bytes instead of decoding every event. With 50
/// connections on one board every event reaches all of them; decoding and applying each
/// (as `HubWriter` does) would make this process, not the server, the limit.
///
/// Confinement: everything but `report` is touched only on `loop` (connect with it).
final class DurableWriter: DurableClient, @unchecked Sendable {
    let loop: IOLoop
    private let number: Int
    private let hello: String
    private let gate: JoinGate
    private let budget: MoveBudget
    private let inFlight: Int
    private let done: DispatchGroup
    private let collections: Int
    private let items: Int
    /// `d<number>-`: the start of this writer's opIds.
    private let prefix: [UInt8]
    private var random: SplitMix64
    private var socket: WebSocketConnection?
    private var seq = 0
    private var sent = 0
    /// Send times of the moves not answered yet, by their number in the opId.
    private var outstanding: [Int: UInt64] = [:]
    private var running = HubWriter.Report()
    private var awaitingWelcome = true
    private var finished = false
    let report = Mutex<HubWriter.Report?>(nil)

    init(
        number: Int, loop: IOLoop, hello: String, gate: JoinGate, budget: MoveBudget, inFlight: Int, seed: UInt64,
        done: DispatchGroup, collections: Int, items: Int
    ) {
        self.number = number
        self.loop = loop
        self.hello = hello
        self.gate = gate
        self.budget = budget
        self.inFlight = inFlight
        self.done = done
        self.collections = collections
        self.items = items
        prefix = Array("d\(number)-".utf8)
        random = SplitMix64(seed: seed)
        done.enter()
    }

    func start() {
        loop.execute { for _ in 0..<self.inFlight { self.sendNext() } }
    }

    func finalReport() -> HubWriter.Report? { report.withLock { $0 } }

    func webSocketDidOpen(_ socket: WebSocketConnection) {
        self.socket = socket
        socket.send(.text(hello))
    }

    func webSocket(_ socket: WebSocketConnection, didReceive message: WebSocketMessage) {
        guard case .text(var text) = message else { return }
        let now = DispatchTime.now().uptimeNanoseconds
        text.withUTF8 { handle($0, at: now) }
    }

    func webSocketDidClose(_ socket: WebSocketConnection, code: WebSocketCloseCode, reason: String) {
        joined("a writer was closed before its welcome (\(code.rawValue) \(reason))")
        fail("closed with \(code.rawValue) \(reason)")
    }

    private static let committed = Array(#""type":"committed""#.utf8)
    private static let rejected = Array(#""type":"rejected""#.utf8)
    private static let welcome = Array(#""type":"welcome""#.utf8)
    private static let error = Array(#""type":"error""#.utf8)
    private static let opIdKey = Array(#""opId":""#.utf8)
    private static let seqKey = Array(#""seq":"#.utf8)
    private static let codeKey = Array(#""code":""#.utf8)
    private static let noopMarker = Array(#""noop":true"#.utf8)

    private func handle(_ bytes: UnsafeBufferPointer<UInt8>, at now: UInt64) {
        if awaitingWelcome {
            if Self.find(Self.welcome, in: bytes) != nil {
                joined(nil)
            } else if Self.find(Self.error, in: bytes) != nil {
                let text = String(decoding: bytes, as: UTF8.self)
                joined("hello was refused: \(text.prefix(200))")
                fail("error: \(text.prefix(200))")
            }
            return
        }
        if Self.find(Self.committed, in: bytes) != nil {
            // Sorted keys: "op" < "opId" < "seq", so the seq follows the opId.
            guard let opIdAt = Self.find(Self.opIdKey, in: bytes) else { return }
            if let seqAt = Self.find(Self.seqKey, in: bytes, from: opIdAt), let value = Self.integer(in: bytes, at: seqAt) {
                seq = max(seq, value)
            }
            guard let mine = ownNumber(bytes, at: opIdAt), let sentAt = outstanding.removeValue(forKey: mine) else { return }
            if Self.find(Self.noopMarker, in: bytes) != nil {
                running.noops += 1
            } else {
                running.latencies.append(Double(now - sentAt) / 1e9)
            }
            answered(at: now)
        } else if Self.find(Self.rejected, in: bytes) != nil {
            guard let opIdAt = Self.find(Self.opIdKey, in: bytes), let mine = ownNumber(bytes, at: opIdAt),
                outstanding.removeValue(forKey: mine) != nil
            else { return }
            var code = "?"
            if let codeAt = Self.find(Self.codeKey, in: bytes), let end = bytes[codeAt...].firstIndex(of: UInt8(ascii: "\"")) {
                code = String(decoding: bytes[codeAt..<end], as: UTF8.self)
            }
            running.rejections[code, default: 0] += 1
            answered(at: now)
        } else if Self.find(Self.error, in: bytes) != nil {
            fail("error: \(String(decoding: bytes, as: UTF8.self).prefix(200))")
        }
    }

    /// The number after this writer's prefix in the opId starting at `start`, or nil for another's.
    private func ownNumber(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> Int? {
        guard start + prefix.count <= bytes.count, bytes[start..<start + prefix.count].elementsEqual(prefix) else { return nil }
        return Self.integer(in: bytes, at: start + prefix.count)
    }

    /// The decimal digits at `start`.
    private static func integer(in bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> Int? {
        var value = 0
        var index = start
        while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
            value = value * 10 + Int(bytes[index] - UInt8(ascii: "0"))
            index += 1
        }
        return index > start ? value : nil
    }

    /// Where the bytes after the first `marker` at or after `from` begin.
    private static func find(_ marker: [UInt8], in bytes: UnsafeBufferPointer<UInt8>, from: Int = 0) -> Int? {
        guard bytes.count >= marker.count, from <= bytes.count - marker.count else { return nil }
        let first = marker[0]
        for start in from...(bytes.count - marker.count) where bytes[start] == first {
            if bytes[start..<start + marker.count].elementsEqual(marker) { return start + marker.count }
        }
        return nil
    }

    private func joined(_ problem: String?) {
        guard awaitingWelcome else { return }
        awaitingWelcome = false
        gate.finish(problem)
    }

    private func answered(at time: UInt64) {
        running.lastAnswer = time
        sendNext()
    }

    /// A random item to the end of a random collection.
    private func sendNext() {
        guard !finished, let socket, !awaitingWelcome else { return }
        guard budget.claim() else {
            if outstanding.isEmpty { finish() }
            return
        }
        sent += 1
        let item = "c\(Int.random(in: 0..<collections, using: &random))-i\(Int.random(in: 0..<items, using: &random))"
        let text =
            #"{"baseSeq":\#(seq),"destination":{"before":null,"collection":"c\#(Int.random(in: 0..<collections, using: &random))"},"#
            + #""opId":"d\#(number)-\#(sent)","sources":["\#(item)"],"type":"move"}"#
        outstanding[sent] = DispatchTime.now().uptimeNanoseconds
        socket.send(.text(text))
    }

    private func fail(_ problem: String) {
        guard !finished else { return }
        running.failure = "writer \(number): \(problem)"
        finish()
    }

    private func finish() {
        finished = true
        let final = running
        report.withLock { $0 = final }
        done.leave()
    }
}

/// Figures read from the server's `/metrics`.
struct ServerFigures {
    var commitToBroadcastSum = 0.0
    var commitToBroadcastCount = 0

    /// `GET /metrics` on a connection of its own with `Connection: close`.
    static func read(target: BenchTarget, loop: IOLoop) throws -> ServerFigures {
        let head = "GET /metrics HTTP/1.1\r\nHost: \(target.host):\(target.port)\r\nConnection: close\r\n\r\n"
        let reader = ResponseReader()
        Connector.connect(host: target.host, port: target.port, loop: loop) { result in
            switch result {
            case .success(let connection):
                connection.start(handler: reader)
                connection.send(Array(head.utf8))
            case .failure(let error):
                reader.fail("\(error)")
            }
        }
        guard reader.done.wait(timeout: .now() + 30) == .success else {
            throw BenchTarget.Failure(description: "GET /metrics got no answer in 30 s")
        }
        var figures = ServerFigures()
        let name = "corkboard_commit_to_broadcast_seconds"
        for line in reader.response.split(separator: "\n") where line.hasPrefix(name) {
            let parts = line.split(separator: " ")
            guard parts.count >= 2, let value = Double(parts[parts.count - 1]) else { continue }
            let metric = parts[0].split(separator: "{")[0]
            if metric == name + "_sum" { figures.commitToBroadcastSum = value }
            if metric == name + "_count" { figures.commitToBroadcastCount = Int(value) }
        }
        return figures
    }
}
