import Dispatch
import Foundation
import Sockets

/// The server's CPU on a fixed workload (issue #36): clients join one board in `steps` steps
/// of `step`, and at each step `movesPerStep` moves are made, so every server does the same
/// work — the same joins, the same moves from the same members, every `committed` checked
/// delivered to every member exactly once and in order. Measured is the server's user and
/// system CPU (`ServerCPU`, from /proc) from before the first join until the board is quiet
/// after the last move: a figure that does not depend on how fast the machine ran it, only on
/// what the server spends per join and per delivery.
public struct CpuScenario {
    public struct Configuration: Sendable {
        public var url: String?
        /// The external server's process id (its CPU is read from /proc); ignored without `url`.
        public var pid: Int32?
        public var steps = 3
        public var step = 1_000
        public var movesPerStep = 300
        /// Moves outstanding, each slot's always from the same member (members 0, 1, …).
        public var inFlight = 4
        /// Clients joining at once.
        public var joinThreads = 8
        /// Threads reading the members' sockets (see `EpollReceivers`).
        public var clientThreads = 2
        /// Longest wait for any one phase of a step.
        public var timeout = 300.0
        public init() {}
    }

    public struct Result: Sendable {
        public var clients: Int
        public var moves: Int
        /// `committed` events received by the members: every move times the members there.
        public var deliveries: Int
        public var cpu: ServerCPU
        public var wallSeconds: Double
        /// Server CPU per delivery, the joins' share included.
        public var microsecondsPerDelivery: Double { deliveries > 0 ? cpu.totalSeconds / Double(deliveries) * 1e6 : 0 }
    }

    public let configuration: Configuration
    public init(configuration: Configuration) { self.configuration = configuration }

    public func run(progress: (String) -> Void) throws -> Result {
        precondition(configuration.steps > 0 && configuration.step >= configuration.inFlight && configuration.movesPerStep > 0)
        let target = try BenchTarget(
            url: configuration.url, serverArguments: ["--no-demo", "--store", "memory"], serverPID: configuration.pid)
        let loops = IOLoopGroup(count: 1)
        let board = SuiteBoard.freshID("cpu")
        try SuiteBoard.create(id: board, movers: configuration.inFlight, target: target, loop: loops.next())
        let receivers = EpollReceivers(threads: configuration.clientThreads)
        defer { receivers.stop() }
        let driver = MoveDriver(seed: 1)
        var fanout = FanoutScenario.Configuration()
        fanout.movesPerStep = configuration.movesPerStep
        fanout.timeout = configuration.timeout
        let measurer = FanoutScenario(configuration: fanout)

        var members: [LeanMember] = []
        var deliveries = 0
        let started = DispatchTime.now().uptimeNanoseconds
        let before = try target.serverCPU()
        for _ in 0..<configuration.steps {
            members += try LeanMember.joinAll(
                members.count..<members.count + configuration.step, target: target, board: { _ in board },
                listener: driver, receivers: receivers, threads: configuration.joinThreads)
            if members.count == configuration.step {
                // Each slot's moves always come from the same member: the same moves on every server.
                driver.assign(
                    (0..<configuration.inFlight).map { MoveDriver.Slot(item: "x\($0)", board: board, sender: members[$0]) })
            }
            try measurer.waitUntilQuiet(members)
            let step = try measurer.measure(members: members, driver: driver, joinSeconds: 0)
            guard step.moves == configuration.movesPerStep, step.duplicates == 0, step.missing == 0 else {
                throw BenchTarget.Failure(
                    description:
                        "at \(members.count) clients: \(step.moves) of \(configuration.movesPerStep) moves committed, \(step.duplicates) deliveries repeated, \(step.missing) missing"
                )
            }
            deliveries += step.expectedDeliveries
            progress(String(format: "%6d clients: %d moves delivered to every member exactly once, in order", members.count, step.moves))
        }
        try measurer.waitUntilQuiet(members)
        let cpu = try target.serverCPU().since(before)
        let wallSeconds = secondsSince(started) - 0.3
        try checkInOrder(members, through: configuration.steps * configuration.movesPerStep)
        receivers.retire(members)
        let result = Result(
            clients: members.count, moves: configuration.steps * configuration.movesPerStep, deliveries: deliveries, cpu: cpu,
            wallSeconds: wallSeconds)
        progress(
            String(
                format: "server CPU %.2f s (user %.2f, system %.2f) for %d deliveries and %d joins: %.2f µs per delivery, joins included",
                cpu.totalSeconds, cpu.userSeconds, cpu.systemSeconds, deliveries, members.count, result.microsecondsPerDelivery))
        return result
    }

    /// Every member has every seq from its welcome's to `lastSeq`, each once (a seq out of
    /// order shows as one missing and one repeated in its log).
    private func checkInOrder(_ members: [LeanMember], through lastSeq: Int) throws {
        for member in members {
            let log = member.log.withLock { $0 }
            let missing = ((log.welcomeSeq + 1)...max(log.welcomeSeq + 1, lastSeq)).filter { log.arrival(of: $0) == nil }
            guard log.duplicates == 0, log.nextSeq == lastSeq + 1, missing.isEmpty || log.welcomeSeq == lastSeq, log.closed == nil
            else {
                throw BenchTarget.Failure(
                    description:
                        "member \(member.number) (welcome at seq \(log.welcomeSeq)): up to seq \(log.nextSeq - 1) of \(lastSeq), \(log.duplicates) repeated, \(missing.count) missing\(log.closed.map { ", \($0)" } ?? "")"
                )
            }
        }
    }
}
