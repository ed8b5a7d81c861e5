import Dispatch
import Foundation
import Sockets

/// The server's CPU for joins (issue #36): `joiners` clients join one board, `concurrency` at
/// a time, and each stays, so every join is announced to the members already there (as far as
/// the server announces joins: Corkboard does, with `peer.joined`; the peers send nothing, see
/// bench/peers/README.md). Measured is the server's user and system CPU (`ServerCPU`) from
/// before the first join until the board is quiet after the last one, and what the members
/// received meanwhile, which shows what each server announced.
public struct JoinsScenario {
    public struct Configuration: Sendable {
        public var url: String?
        /// The external server's process id (its CPU is read from /proc); ignored without `url`.
        public var pid: Int32?
        public var joiners = 3_000
        /// Clients joining at once (each a thread that connects, says hello and waits for its welcome).
        public var concurrency = 50
        public var clientThreads = 2
        /// Longest wait for the board to settle.
        public var timeout = 300.0
        public init() {}
    }

    public struct Result: Sendable {
        public var joiners: Int
        public var cpu: ServerCPU
        /// From the first connect to the last welcome.
        public var joinSeconds: Double
        /// Messages and bytes (texts without frame headers) all members received after their welcomes.
        public var messages: Int
        public var bytes: Int
        /// Of those bytes, membership news (`peers`, `peer.joined`, `peer.left`).
        public var membershipBytes: Int
        public var millisecondsPerJoin: Double { joiners > 0 ? cpu.totalSeconds / Double(joiners) * 1e3 : 0 }
    }

    public let configuration: Configuration
    public init(configuration: Configuration) { self.configuration = configuration }

    public func run(progress: (String) -> Void) throws -> Result {
        precondition(configuration.joiners > 0 && configuration.concurrency > 0)
        let target = try BenchTarget(
            url: configuration.url, serverArguments: ["--no-demo", "--store", "memory"], serverPID: configuration.pid)
        let loops = IOLoopGroup(count: 1)
        let board = SuiteBoard.freshID("joins")
        try SuiteBoard.create(id: board, movers: 1, target: target, loop: loops.next())
        let receivers = EpollReceivers(threads: configuration.clientThreads)
        defer { receivers.stop() }
        var quiet = FanoutScenario.Configuration()
        quiet.timeout = configuration.timeout

        let before = try target.serverCPU()
        let started = DispatchTime.now().uptimeNanoseconds
        let members = try LeanMember.joinAll(
            0..<configuration.joiners, target: target, board: { _ in board }, listener: nil, receivers: receivers,
            threads: configuration.concurrency)
        let joinSeconds = secondsSince(started)
        try FanoutScenario(configuration: quiet).waitUntilQuiet(members)
        let cpu = try target.serverCPU().since(before)
        let logs = members.map { $0.log.withLock { $0 } }
        if let closed = logs.first(where: { $0.closed != nil })?.closed {
            throw BenchTarget.Failure(description: "a member was disconnected: \(closed)")
        }
        receivers.retire(members)
        let result = Result(
            joiners: members.count, cpu: cpu, joinSeconds: joinSeconds, messages: logs.reduce(0) { $0 + $1.received },
            bytes: logs.reduce(0) { $0 + $1.receivedBytes }, membershipBytes: logs.reduce(0) { $0 + $1.membershipBytes })
        progress(
            String(
                format:
                    "%d joined (%d at a time) in %.1f s; server CPU %.2f s (user %.2f, system %.2f), %.2f ms per join; members received %d messages, %.1f MB (membership %.1f MB)",
                result.joiners, configuration.concurrency, joinSeconds, cpu.totalSeconds, cpu.userSeconds, cpu.systemSeconds,
                result.millisecondsPerJoin, result.messages, Double(result.bytes) / 1e6, Double(result.membershipBytes) / 1e6))
        return result
    }
}
