import Dispatch
import Foundation
import Sockets
import WebSocket

/// Fan-out capacity (issue #11), after hashrocket's websocket-bench: clients join one board in
/// steps; at each step a few moves are kept in flight from random clients, and for each move
/// the time from sending it to the *last* member receiving its `committed` is recorded. Every
/// member must receive every event exactly once. The scenario stops at the first step whose
/// p95 passes the limit; the capacity is the last step under it.
public struct FanoutScenario {
    public struct Configuration: Sendable {
        public var url: String?
        public var step = 500
        public var maxClients = 10_000
        public var movesPerStep = 100
        public var inFlight = 4
        /// The p95 above which a step fails, in milliseconds.
        public var limit = 250.0
        /// Threads reading the members' sockets (see `EpollReceivers`).
        public var clientThreads = 2
        public var seed: UInt64 = 1
        /// Longest wait for any one phase of a step.
        public var timeout = 120.0
        /// The process id of the server at `url`, to read the CPU it spends on each step's
        /// moves (our own server child's is read without it).
        public var pid: Int32?
        public init() {}
    }

    public struct Result: Sendable {
        public var steps: [FanoutStep] = []
        /// The most clients whose step stayed under the limit (0: not even the first).
        public var capacity = 0
        /// Why the scenario stopped.
        public var stop = ""
    }

    public let configuration: Configuration
    public init(configuration: Configuration) { self.configuration = configuration }

    public func run(progress: (String) -> Void) throws -> Result {
        let target = try BenchTarget(
            url: configuration.url, serverArguments: ["--no-demo", "--store", "memory"], serverPID: configuration.pid)
        let loops = IOLoopGroup(count: 1)
        let board = SuiteBoard.freshID("fanout")
        try SuiteBoard.create(id: board, movers: configuration.inFlight, target: target, loop: loops.next())
        let receivers = EpollReceivers(threads: configuration.clientThreads)
        defer { receivers.stop() }
        let driver = MoveDriver(
            slots: (0..<configuration.inFlight).map { MoveDriver.Slot(item: "x\($0)", board: board, sender: nil) },
            seed: configuration.seed)
        var members: [LeanMember] = []
        var result = Result()
        while members.count + configuration.step <= configuration.maxClients {
            let joinStarted = DispatchTime.now().uptimeNanoseconds
            do {
                members += try LeanMember.joinAll(
                    members.count..<members.count + configuration.step, target: target,
                    board: { _ in board }, listener: driver, receivers: receivers)
            } catch {
                result.stop = "joining \(members.count + configuration.step) clients failed: \(error)"
                break
            }
            let joinSeconds = secondsSince(joinStarted)
            // Joins make the server announce each newcomer to everybody; let that settle so it
            // does not count as the moves' latency.
            try waitUntilQuiet(members)
            let step = try measure(
                members: members, driver: driver, joinSeconds: joinSeconds, serverPID: target.serverProcessIDForMeasuring)
            result.steps.append(step)
            progress(
                String(
                    format: "%6d clients  %@  joined in %.1f s%@%@", step.clients, step.latency.text, joinSeconds, step.cpuText,
                    step.duplicates + step.missing > 0 ? "  DELIVERY ERRORS: \(step.duplicates) duplicate, \(step.missing) missing" : ""))
            if step.duplicates + step.missing > 0 {
                result.stop = "members missed or repeated events at \(step.clients) clients"
                break
            }
            guard step.latency.p95 <= configuration.limit else {
                result.stop = String(format: "p95 %.1f ms passed the %.0f ms limit at %d clients", step.latency.p95, configuration.limit, step.clients)
                break
            }
            result.capacity = step.clients
        }
        if result.stop.isEmpty { result.stop = "reached --max-clients \(configuration.maxClients) under the limit" }
        return result
    }

    /// Waits until no member received anything for 300 ms (at most `timeout`).
    func waitUntilQuiet(_ members: [LeanMember]) throws {
        let deadline = DispatchTime.now() + configuration.timeout
        var last = -1
        while true {
            let received = members.reduce(0) { $0 + $1.log.withLock { $0.received } }
            if received == last { return }
            guard DispatchTime.now() < deadline else {
                throw BenchTarget.Failure(description: "the board did not settle within \(Int(configuration.timeout)) s after the joins")
            }
            last = received
            Thread.sleep(forTimeInterval: 0.3)
        }
    }

    /// Runs a step's moves and checks every member got each. With `serverPID`, the CPU the
    /// server and this bench process spent from the first move until every member had the
    /// last is kept too: the bench's share matters, for it shares the machine.
    func measure(members: [LeanMember], driver: MoveDriver, joinSeconds: Double, serverPID: Int32? = nil) throws -> FanoutStep {
        let serverBefore = serverPID.flatMap(ServerCPU.of(pid:))
        let benchBefore = ServerCPU.of(pid: getpid())
        let outcome = try driver.run(moves: configuration.movesPerStep, senders: members, timeout: configuration.timeout)
        guard let finalSeq = outcome.samples.map(\.seq).max() else {
            throw BenchTarget.Failure(description: "no move was committed: \(outcome.noops) noops, rejected \(outcome.rejections)")
        }
        // Every member must reach the final seq.
        let deadline = DispatchTime.now() + configuration.timeout
        var logs = members.map { $0.log.withLock { $0 } }
        while logs.contains(where: { $0.nextSeq <= finalSeq && $0.closed == nil }) {
            guard DispatchTime.now() < deadline else {
                let behind = logs.filter { $0.nextSeq <= finalSeq }.count
                throw BenchTarget.Failure(description: "\(behind) members lack seq \(finalSeq) after \(Int(configuration.timeout)) s")
            }
            Thread.sleep(forTimeInterval: 0.01)
            logs = members.map { $0.log.withLock { $0 } }
        }
        let serverSpent = serverBefore.flatMap { before in serverPID.flatMap(ServerCPU.of(pid:))?.since(before) }
        let benchSpent = benchBefore.flatMap { ServerCPU.of(pid: getpid())?.since($0) }
        if let closed = logs.first(where: { $0.closed != nil })?.closed {
            throw BenchTarget.Failure(description: "a member was disconnected: \(closed)")
        }
        var lastArrivals: [UInt64] = []
        var missing = 0
        for sample in outcome.samples {
            var last: UInt64 = 0
            for log in logs {
                if let arrival = log.arrival(of: sample.seq) { last = max(last, arrival) } else { missing += 1 }
            }
            lastArrivals.append(last > sample.sentAt ? last - sample.sentAt : 0)
        }
        return FanoutStep(
            clients: members.count, moves: outcome.samples.count, latency: LatencySummary(nanoseconds: lastArrivals),
            expectedDeliveries: outcome.samples.count * members.count,
            duplicates: logs.reduce(0) { $0 + $1.duplicates }, missing: missing,
            joinSeconds: joinSeconds, serverCPUSeconds: serverSpent?.totalSeconds, benchCPUSeconds: benchSpent?.totalSeconds)
    }
}
