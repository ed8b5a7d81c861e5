import CorkboardModel
import CorkboardWire
import Dispatch
import Foundation
import Sockets
import Synchronization
import WebSocket
import WebSocketDeflate

/// The collaboration hub end to end (docs/protocol.md#3-joining, docs/protocol.md#4-operations):
/// `writers` members move items on one board, each keeping `inFlight` moves outstanding,
/// while N more members only watch. Measured are committed moves per second, the latency
/// from sending a move to the writer's own `committed`, and when the last watcher has the
/// final seq. Each N gets a board of its own.
public struct HubBenchmark {
    public struct Configuration: Sendable {
        public var url: String?
        /// Watching members per step.
        public var steps = [1, 100, 1_000]
        public var writers = 8
        public var inFlight = 4
        /// Moves per step, shared by the writers: a fixed amount of work, not a duration.
        public var operations = 20_000
        public var collections = 10
        public var itemsPerCollection = 100
        /// Every client offers permessage-deflate.
        public var deflate = false
        public var clientLoops = 2
        public var seed: UInt64 = 1
        /// Longest wait for any one phase of a step (joining, the moves, the watchers catching up).
        public var timeout = 600.0
        public init() {}
    }

    public let configuration: Configuration
    public init(configuration: Configuration) { self.configuration = configuration }

    public func run(progress: (String) -> Void) throws -> String {
        let target = try BenchTarget(url: configuration.url, serverArguments: ["--no-demo"])
        let loops = IOLoopGroup(count: configuration.clientLoops)
        var options = WebSocketOptions()
        // A welcome carries the board and every peer: well over the default 1 MiB at 10,000 members.
        options.maxMessageSize = 16 << 20
        options.closeTimeout = .seconds(30)
        if configuration.deflate { options.extensions = DeflateNegotiator() }
        var lines = [
            "hub: \(configuration.collections) × \(configuration.itemsPerCollection) board, \(configuration.writers) writers × "
                + "\(configuration.inFlight) in flight, \(configuration.operations) moves per step, "
                + "permessage-deflate \(configuration.deflate ? "on" : "off")",
            Self.row(["", "", "", "", "latency to own committed (ms)", "final move (ms) until"], widths: [9, 13, 7, 10, 34, 23]),
            Self.row([
                "members", "committed/s", "noops", "rejected", "p50", "p90", "p99", "max", "answered", "last member",
                "server RSS",
            ]),
        ]
        for members in configuration.steps {
            let line = try step(members: members, target: target, loops: loops, options: options, progress: progress)
            lines.append(line)
            progress(line)
            // The step's members have just closed; the server's leaving (a `peer.left` to every
            // remaining member for each one) should not overlap the next step's figures.
            Thread.sleep(forTimeInterval: 1)
        }
        return lines.joined(separator: "\n")
    }

    private func step(
        members: Int, target: BenchTarget, loops: IOLoopGroup, options: WebSocketOptions,
        progress: (String) -> Void
    ) throws -> String {
        let board = makeBoard(id: "hub-\(members)-\(UUID().uuidString.prefix(8).lowercased())")
        try Self.create(board, target: target, loop: loops.next())
        let gate = JoinGate(window: 100)
        let joinStarted = DispatchTime.now()
        let watchers = (0..<members).map { HubMember(loop: loops.next(), hello: helloText(board: board.id, name: "m\($0)"), gate: gate) }
        var sockets = try joinAll(watchers.map { ($0, $0.loop) }, target: target, options: options, gate: gate, timeout: configuration.timeout)
        defer { for socket in sockets { socket.close() } }
        progress(String(format: "%d members joined %@ in %.2f s", members, board.id, seconds(since: joinStarted)))

        let done = DispatchGroup()
        let budget = MoveBudget(configuration.operations)
        let writers = (0..<configuration.writers).map {
            HubWriter(
                number: $0, loop: loops.next(), hello: helloText(board: board.id, name: "w\($0)"), gate: gate,
                budget: budget, inFlight: configuration.inFlight, seed: configuration.seed &+ UInt64($0), done: done)
        }
        sockets += try joinAll(writers.map { ($0, $0.loop) }, target: target, options: options, gate: gate, timeout: configuration.timeout)

        let started = DispatchTime.now().uptimeNanoseconds
        for writer in writers { writer.start() }
        guard done.wait(timeout: .now() + configuration.timeout) == .success else {
            throw BenchTarget.Failure(description: "the writers did not finish \(configuration.operations) moves in \(Int(configuration.timeout)) s")
        }
        let reports = writers.compactMap { $0.report.withLock { $0 } }
        if let failure = reports.compactMap(\.failure).first { throw BenchTarget.Failure(description: failure) }
        let latencies = Percentiles(reports.flatMap(\.latencies))
        let lastAnswer = reports.map(\.lastAnswer).max() ?? started
        // The move that became the final seq: when it was sent, answered, and had by the last watcher.
        guard let final = reports.max(by: { $0.highestOwnSeq < $1.highestOwnSeq }) else {
            throw BenchTarget.Failure(description: "no writer reported")
        }
        let lastDelivery = try waitForWatchers(watchers, finalSeq: final.highestOwnSeq)

        let seconds = Double(lastAnswer - started) / 1e9
        let rejections = reports.reduce(into: [String: Int]()) { $0.merge($1.rejections, uniquingKeysWith: +) }
        let noops = reports.reduce(0) { $0 + $1.noops }
        func milliseconds(_ nanoseconds: Double) -> String { String(format: "%.2f", nanoseconds / 1e6) }
        var line = Self.row(
            [
                String(members), String(format: "%.0f", Double(latencies.sorted.count) / seconds), String(noops),
                String(rejections.values.reduce(0, +)),
            ]
                + [0.5, 0.9, 0.99, 1].map { milliseconds(latencies.value($0) * 1e9) }
                + [
                    milliseconds(Double(final.highestOwnSeqAnswered - final.highestOwnSeqSent)),
                    milliseconds(Double(lastDelivery) - Double(final.highestOwnSeqSent)),
                    target.serverResidentBytes.map { String(format: "%.0f MB", Double($0) / 1e6) } ?? "-",
                ])
        if !rejections.isEmpty { line += "   rejected: \(rejections.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))" }
        return line
    }

    private static func row(_ cells: [String], widths: [Int] = [9, 13, 7, 10, 10, 8, 8, 8, 10, 13, 12]) -> String {
        zip(cells, widths).map { String(repeating: " ", count: max(1, $1 - $0.count)) + $0 }.joined()
    }

    /// Waits until every watcher has counted `finalSeq` events (the board started at seq 0);
    /// returns when the last of them received its last one.
    private func waitForWatchers(_ watchers: [HubMember], finalSeq: Int) throws -> UInt64 {
        let deadline = DispatchTime.now() + configuration.timeout
        while true {
            let tallies = watchers.map { $0.tally.withLock { $0 } }
            if tallies.allSatisfy({ $0.committed >= finalSeq }) { return tallies.map(\.lastCommitted).max() ?? 0 }
            let closed = tallies.filter(\.closed).count
            guard closed == 0 else {
                throw BenchTarget.Failure(description: "\(closed) members were disconnected before they had seq \(finalSeq)")
            }
            guard DispatchTime.now() < deadline else {
                let behind = tallies.filter { $0.committed < finalSeq }
                throw BenchTarget.Failure(
                    description: "\(behind.count) members lack seq \(finalSeq) after \(Int(configuration.timeout)) s "
                        + "(the furthest behind has \(behind.map(\.committed).min() ?? 0))")
            }
            // The wait's granularity does not matter: each member notes its own arrival time.
            Thread.sleep(forTimeInterval: 0.005)
        }
    }

    /// Collections `c0…` of items `c0-i0…`, like the model benchmark's board.
    private func makeBoard(id: String) -> Board {
        Board(
            id: id, title: "Hub benchmark",
            collections: (0..<configuration.collections).map { column in
                BoardCollection(
                    id: "c\(column)", title: "Collection \(column)",
                    items: (0..<configuration.itemsPerCollection).map { Item(id: "c\(column)-i\($0)", label: "Item \($0)") })
            })
    }

    /// `POST /api/boards` on a connection of its own with `Connection: close`, so the response
    /// is everything read before the server closes.
    static func create(_ board: Board, target: BenchTarget, loop: IOLoop) throws {
        try post("/api/boards", body: try WireFormat.encode(board), expecting: "201", target: target, loop: loop)
    }

    /// `POST path` with a JSON `body` on a connection of its own; fails unless answered `status`.
    static func post(_ path: String, body: Data, expecting status: String, target: BenchTarget, loop: IOLoop) throws {
        let head =
            "POST \(path) HTTP/1.1\r\nHost: \(target.host):\(target.port)\r\nContent-Type: application/json\r\n"
            + "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n"
        let reader = ResponseReader()
        Connector.connect(host: target.host, port: target.port, loop: loop) { result in
            switch result {
            case .success(let connection):
                connection.start(handler: reader)
                connection.send(Array(head.utf8) + body)
            case .failure(let error):
                reader.fail("\(error)")
            }
        }
        guard reader.done.wait(timeout: .now() + 30) == .success else {
            throw BenchTarget.Failure(description: "POST \(path) got no answer in 30 s")
        }
        let response = reader.response
        guard response.hasPrefix("HTTP/1.1 \(status)") else {
            throw BenchTarget.Failure(description: "POST \(path): \(response.prefix(300))")
        }
    }
}

private func seconds(since start: DispatchTime) -> Double {
    Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
}

/// Collects one HTTP response until the connection closes.
final class ResponseReader: ConnectionHandler, Sendable {
    private let received = Mutex<[UInt8]>([])
    let done = DispatchSemaphore(value: 0)

    var response: String { String(decoding: received.withLock { $0 }, as: UTF8.self) }

    func fail(_ problem: String) {
        received.withLock { $0 = Array("connect failed: \(problem)".utf8) }
        done.signal()
    }

    func connection(_ connection: Connection, didRead bytes: UnsafeRawBufferPointer) {
        received.withLock { $0 += bytes }
    }

    func connectionDidClose(_ connection: Connection, reason: Connection.CloseReason) { done.signal() }
}
