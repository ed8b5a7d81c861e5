import Dispatch
import Foundation
import Sockets

/// A join storm (issue #24): `members` clients on one board, then `joiners` more join as fast
/// as they can. Measured: the time until every joiner has its welcome, the time until the
/// board is quiet again (every member heard of every join), the bytes all members received
/// meanwhile, and then the fan-out p95 of moves on the grown board (`FanoutScenario`'s
/// measure: every member must get every seq exactly once).
public struct JoinStormScenario {
    public struct Configuration: Sendable {
        public var url: String?
        public var members = 5_000
        public var joiners = 1_000
        public var moves = 50
        public var inFlight = 4
        public var clientThreads = 2
        public var seed: UInt64 = 1
        /// Longest wait for any one phase.
        public var timeout = 180.0
        public init() {}
    }

    public struct Result: Sendable {
        public var members: Int
        public var joiners: Int
        /// From the first joiner's connect to the last one's welcome.
        public var joinSeconds: Double
        /// From the first joiner's connect until no member received anything for 300 ms (less those 300 ms).
        public var settleSeconds: Double
        /// Messages and bytes every member (joiners included) received from the storm's start until quiet.
        public var messages: Int
        public var bytes: Int
        /// The moves afterwards: sending to the last member receiving its `committed`.
        public var fanout: FanoutStep
    }

    public let configuration: Configuration
    public init(configuration: Configuration) { self.configuration = configuration }

    public func run(progress: (String) -> Void) throws -> Result {
        let target = try BenchTarget(url: configuration.url, serverArguments: ["--no-demo", "--store", "memory"])
        let loops = IOLoopGroup(count: 1)
        let board = SuiteBoard.freshID("join-storm")
        try SuiteBoard.create(id: board, movers: configuration.inFlight, target: target, loop: loops.next())
        let receivers = EpollReceivers(threads: configuration.clientThreads)
        defer { receivers.stop() }
        let driver = MoveDriver(
            slots: (0..<configuration.inFlight).map { MoveDriver.Slot(item: "x\($0)", board: board, sender: nil) },
            seed: configuration.seed)
        var fanout = FanoutScenario.Configuration()
        fanout.movesPerStep = configuration.moves
        fanout.timeout = configuration.timeout
        let measurer = FanoutScenario(configuration: fanout)

        var members = try LeanMember.joinAll(
            0..<configuration.members, target: target, board: { _ in board }, listener: driver, receivers: receivers)
        try measurer.waitUntilQuiet(members)
        progress("\(members.count) members on the board")
        let before = Self.totals(members)

        let started = DispatchTime.now().uptimeNanoseconds
        let joiners = try LeanMember.joinAll(
            configuration.members..<configuration.members + configuration.joiners, target: target, board: { _ in board },
            listener: driver, receivers: receivers)
        let joinSeconds = secondsSince(started)
        members += joiners
        try measurer.waitUntilQuiet(members)
        let settleSeconds = max(joinSeconds, secondsSince(started) - 0.3)
        let after = Self.totals(members)
        progress(
            String(
                format: "%d joined in %.2f s, quiet after %.2f s; members received %d messages, %.1f MB", configuration.joiners,
                joinSeconds, settleSeconds, after.messages - before.messages, Double(after.bytes - before.bytes) / 1e6))
        let step = try measurer.measure(members: members, driver: driver, joinSeconds: joinSeconds)
        progress("\(members.count) members, moves afterwards: \(step.latency.text)")
        for member in members { member.close() }
        return Result(
            members: configuration.members, joiners: configuration.joiners, joinSeconds: joinSeconds, settleSeconds: settleSeconds,
            messages: after.messages - before.messages, bytes: after.bytes - before.bytes, fanout: step)
    }

    private static func totals(_ members: [LeanMember]) -> (messages: Int, bytes: Int) {
        members.reduce((0, 0)) { sum, member in
            let log = member.log.withLock { ($0.received, $0.receivedBytes) }
            return (sum.0 + log.0, sum.1 + log.1)
        }
    }
}
