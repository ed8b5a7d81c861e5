import CorkboardClient
import Dispatch
import Foundation
import Glibc
import Sockets
import Synchronization

/// A reconnect storm (issue #24): the server on its default SQLite store as a child
/// process; `bigBoardMembers` clients on one board and `spreadMembers` over `spreadBoards`
/// more, with moves committed at a steady rate throughout. The server is stopped by each of
/// `signals` in turn and started again on the same port and data; every client reconnects with
/// the Swift client's jittered backoff and resumes from its last seq. Measured per round: the
/// time from "listening again" until every client is back, the handshakes a second, the delay
/// of the moves committed meanwhile (to their sender, and to the members already back), and
/// every client's events checked gap-free and exactly once over all its connections. Also the
/// server's memory per idle member once everybody has joined.
public struct RestartScenario {
    public struct Configuration: Sendable {
        /// The executable whose `serve` runs the server (`corkboard` or `corkboard-bench`); nil:
        /// this process's own (`corkboard-bench serve`).
        public var executable: String?
        public var bigBoardMembers = 5_000
        public var spreadMembers = 5_000
        public var spreadBoards = 100
        /// Moves a second over all the boards (a fifth on the big board).
        public var rate = 20.0
        /// Seconds of traffic before each stop.
        public var warmup = 2.0
        public var signals: [Int32] = [SIGTERM, SIGKILL]
        /// Threads making the blocking reconnect attempts, and reading the members' sockets.
        /// The clients' delays between attempts: the Swift client's by default.
        public var backoff = Backoff.reconnect
        public var reconnectThreads = 512
        public var clientThreads = 2
        public var seed: UInt64 = 1
        /// Longest wait for any one phase.
        public var timeout = 180.0
        public init() {}
    }

    public struct Round: Sendable {
        public var signal: String
        /// From the restarted server's "listening" line until the last client's resumed welcome.
        public var resumeSeconds: Double
        public var handshakes: Int
        public var handshakesPerSecond: Double { resumeSeconds > 0 ? Double(handshakes) / resumeSeconds : 0 }
        /// The most welcomes in any one second of the storm.
        public var peakHandshakesPerSecond: Int
        public var failedAttempts: Int
        /// Failed attempts by reason ("cannot connect" while the server was down, …).
        public var failures: [String: Int]
        public var unresumed: Int
        /// Over every client: seqs missed, seqs received twice, and reconnections answered
        /// with a snapshot instead of a replay (all must be 0).
        public var gaps: Int
        public var duplicates: Int
        public var snapshots: Int
        /// Events every client should have had since it joined, summed (what was checked).
        public var deliveriesChecked: Int
        /// Messages and bytes (text only) all clients received from the stop until the boards were
        /// quiet again: replays, welcomes, membership ticks and live moves.
        public var messages: Int
        public var bytes: Int
        /// Of those bytes, membership news (`peers` ticks, `peer.joined`, `peer.left`).
        public var membershipBytes: Int
        /// Moves sent while the storm lasted: from sending to the sender's `committed`, and to
        /// each member that was already back when it was sent.
        public var liveCommit: LatencySummary
        public var liveDelivery: LatencySummary
        /// The same for the moves of the warm-up before the stop: the board without a storm.
        public var calmCommit: LatencySummary
        public var calmDelivery: LatencySummary
    }

    public struct Result: Sendable {
        public var members: Int
        public var joinSeconds: Double
        public var residentBefore: Int
        public var residentJoined: Int
        public var bytesPerMember: Double { Double(residentJoined - residentBefore) / Double(max(1, members)) }
        public var rounds: [Round] = []
    }

    public let configuration: Configuration
    public init(configuration: Configuration) { self.configuration = configuration }

    /// The SDK's reconnect policy (web/sdk/backoff.js), for `Configuration.backoff`.
    public static var browserSDKBackoff: Backoff { ReconnectStorm.browserSDK }

    public func run(progress: (String) -> Void) throws -> Result {
        BenchTarget.raiseDescriptorLimit()
        let server = try ServerChild(executable: configuration.executable, arguments: ["--no-demo"])
        try server.start()
        defer { server.stop(signal: SIGTERM) }
        let target = try BenchTarget(url: "ws://127.0.0.1:\(server.port)")
        let loops = IOLoopGroup(count: 1)
        let big = SuiteBoard.freshID("restart")
        let spread = (0..<configuration.spreadBoards).map { _ in SuiteBoard.freshID("restart") }
        try SuiteBoard.create(id: big, movers: 2, target: target, loop: loops.next())
        for board in spread { try SuiteBoard.create(id: board, movers: 1, target: target, loop: loops.next()) }
        let traffic = PacedMoves(seed: configuration.seed)
        let members =
            (0..<configuration.bigBoardMembers).map { ResumingMember(number: $0, board: big, listener: traffic) }
            + (0..<configuration.spreadMembers).map {
                ResumingMember(
                    number: configuration.bigBoardMembers + $0, board: spread[$0 % max(1, spread.count)], listener: traffic)
            }
        let boards = Dictionary(grouping: members, by: \.board)
        // The big board gets a fifth of the moves (its events go to thousands), the rest go round
        // eight of the small boards.
        traffic.assign(
            (0..<2).map { PacedMoves.Slot(item: "x\($0)", board: big, members: boards[big] ?? []) }
                + spread.prefix(8).map { PacedMoves.Slot(item: "x0", board: $0, members: boards[$0] ?? []) })
        let receivers = EpollReceivers(threads: configuration.clientThreads)
        defer { receivers.stop() }

        Thread.sleep(forTimeInterval: 1)
        let residentBefore = server.residentBytes ?? 0
        let started = DispatchTime.now().uptimeNanoseconds
        var joining = ReconnectStorm()
        joining.backoff = Backoff(initial: 0.05, maximum: 1)
        joining.threads = 8
        joining.timeout = configuration.timeout
        let joined = joining.run(members, lostAt: started, host: target.host, port: target.port, receivers: receivers)
        guard joined.unresumed == 0 else {
            throw BenchTarget.Failure(description: "\(joined.unresumed) clients could not join: \(joined.lastFailure ?? "?")")
        }
        let joinSeconds = secondsSince(started)
        try waitUntilQuiet(members)
        let residentJoined = server.residentBytes ?? 0
        var result = Result(
            members: members.count, joinSeconds: joinSeconds, residentBefore: residentBefore, residentJoined: residentJoined)
        progress(
            String(
                format: "%d clients joined (%d on one board, %d over %d boards) in %.1f s; server RSS %.1f → %.1f MB: %.2f KiB per idle member",
                members.count, configuration.bigBoardMembers, configuration.spreadMembers, spread.count, joinSeconds,
                Double(residentBefore) / 1e6, Double(residentJoined) / 1e6, result.bytesPerMember / 1024))

        defer {
            // Not latency samples, so said here: a storm that made moves fail would shrink them.
            let rejections = traffic.rejections.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }
            progress(
                "live moves not committed over the run: \(traffic.noops) noops (a move lost in a stop had landed), rejected: "
                    + (rejections.isEmpty ? "none" : rejections.joined(separator: ", ")))
        }
        for signal in configuration.signals {
            let round = try restart(
                with: signal, server: server, members: members, boards: boards, traffic: traffic, receivers: receivers)
            progress(
                String(
                    format:
                        "%@: all %d resumed %.2f s after listening again (%d still away), %.0f handshakes/s (peak %d in a second, %d failed attempts); %d deliveries checked: %d gaps, %d duplicates, %d snapshots",
                    round.signal, round.handshakes, round.resumeSeconds, round.unresumed, round.handshakesPerSecond,
                    round.peakHandshakesPerSecond, round.failedAttempts, round.deliveriesChecked, round.gaps, round.duplicates,
                    round.snapshots))
            progress(
                String(
                    format: "  the clients received %d messages, %.1f MB, from the stop until quiet (membership news: %.1f MB)",
                    round.messages, Double(round.bytes) / 1e6, Double(round.membershipBytes) / 1e6))
            let failures = round.failures.sorted { $0.value > $1.value }.map { "\($0.value) \($0.key)" }
            progress("  failed attempts: " + (failures.isEmpty ? "none" : failures.joined(separator: ", ")))
            progress("  moves before the stop (\(round.calmCommit.count)), to their sender: \(round.calmCommit.text)")
            progress("  … to the board's members (\(round.calmDelivery.count) deliveries): \(round.calmDelivery.text)")
            progress("  moves during the storm (\(round.liveCommit.count)), to their sender: \(round.liveCommit.text)")
            progress("  … to the members already back (\(round.liveDelivery.count) deliveries): \(round.liveDelivery.text)")
            result.rounds.append(round)
        }
        return result
    }

    private func restart(
        with signal: Int32, server: ServerChild, members: [ResumingMember], boards: [String: [ResumingMember]],
        traffic: PacedMoves, receivers: EpollReceivers
    ) throws -> Round {
        let calmFrom = DispatchTime.now().uptimeNanoseconds
        traffic.start(rate: configuration.rate)
        Thread.sleep(forTimeInterval: configuration.warmup)
        let calmUntil = DispatchTime.now().uptimeNanoseconds
        let before = Self.received(members)
        server.stop(signal: signal, timeout: configuration.timeout)
        let lostAt = DispatchTime.now().uptimeNanoseconds
        traffic.forgetUnanswered()
        // The receivers see every socket end; wait for that so no read races a reconnect.
        let deadline = Date(timeIntervalSinceNow: 10)
        while members.contains(where: { $0.current != nil }) && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        receivers.retire(members.compactMap(\.current))
        // The clients knock from the moment they lost the server, while it starts again.
        var storm = ReconnectStorm()
        storm.threads = configuration.reconnectThreads
        storm.timeout = configuration.timeout
        storm.backoff = configuration.backoff
        let stormOutcome = Mutex<ReconnectStorm.Outcome?>(nil)
        let stormOver = DispatchSemaphore(value: 0)
        Thread { [storm, port = server.port] in
            let outcome = storm.run(members, lostAt: lostAt, host: "127.0.0.1", port: port, receivers: receivers)
            stormOutcome.withLock { $0 = outcome }
            stormOver.signal()
        }.start()
        try server.start()
        let listening = DispatchTime.now().uptimeNanoseconds
        stormOver.wait()
        guard let outcome = stormOutcome.withLock({ $0 }) else { throw BenchTarget.Failure(description: "the storm did not finish") }
        let lastResumed = outcome.resumedAt.max() ?? listening
        traffic.stop()
        guard outcome.unresumed == 0 else {
            throw BenchTarget.Failure(
                description: "\(outcome.unresumed) clients did not resume within \(Int(configuration.timeout)) s: \(outcome.lastFailure ?? "?")")
        }
        try waitUntilQuiet(members)
        let after = Self.received(members)

        // Every member must reach its board's last seq; then count what it missed or had twice.
        var finalSeqs: [String: Int] = [:]
        for (board, its) in boards { finalSeqs[board] = its.map(\.lastSeq).max() ?? 0 }
        let settle = Date(timeIntervalSinceNow: configuration.timeout)
        while members.contains(where: { $0.lastSeq < finalSeqs[$0.board, default: 0] }) && Date() < settle {
            Thread.sleep(forTimeInterval: 0.05)
        }
        var totals = ResumingMember.Delivery()
        var checked = 0
        for member in members {
            let delivery = member.delivery(finalSeq: finalSeqs[member.board, default: 0])
            totals.gaps += delivery.gaps
            totals.duplicates += delivery.duplicates
            totals.snapshots += delivery.snapshots
            checked += finalSeqs[member.board, default: 0] - (member.history.first?.member.log.withLock { $0.welcomeSeq } ?? 0)
        }

        let (liveCommit, liveDelivery) = latencies(of: traffic, sentFrom: listening, until: lastResumed, boards: boards)
        let (calmCommit, calmDelivery) = latencies(of: traffic, sentFrom: calmFrom, until: calmUntil, boards: boards)
        var perSecond: [UInt64: Int] = [:]
        for time in outcome.resumedAt where time >= listening { perSecond[(time - listening) / 1_000_000_000, default: 0] += 1 }
        return Round(
            signal: signal == SIGKILL ? "SIGKILL" : signal == SIGTERM ? "SIGTERM" : "signal \(signal)",
            resumeSeconds: Double(lastResumed - listening) / 1e9, handshakes: members.count - outcome.unresumed,
            peakHandshakesPerSecond: perSecond.values.max() ?? 0, failedAttempts: outcome.failedAttempts,
            failures: outcome.failures, unresumed: outcome.unresumed, gaps: totals.gaps, duplicates: totals.duplicates,
            snapshots: totals.snapshots, deliveriesChecked: checked, messages: after.messages - before.messages,
            bytes: after.bytes - before.bytes, membershipBytes: after.membershipBytes - before.membershipBytes, liveCommit: liveCommit,
            liveDelivery: liveDelivery,
            calmCommit: calmCommit, calmDelivery: calmDelivery)
    }

    /// The moves sent between `start` and `end`: from sending to the sender's `committed`, and
    /// to each member of the board that was connected when it was sent.
    private func latencies(
        of traffic: PacedMoves, sentFrom start: UInt64, until end: UInt64, boards: [String: [ResumingMember]]
    ) -> (commit: LatencySummary, delivery: LatencySummary) {
        let samples = traffic.samples.filter { $0.sentAt >= start && $0.sentAt <= end }
        var deliveries: [UInt64] = []
        for sample in samples {
            for member in boards[sample.board] ?? [] {
                if let arrival = member.liveArrival(of: sample.seq, sentAt: sample.sentAt), arrival > sample.sentAt {
                    deliveries.append(arrival - sample.sentAt)
                }
            }
        }
        return (
            LatencySummary(nanoseconds: samples.map { $0.answeredAt > $0.sentAt ? $0.answeredAt - $0.sentAt : 0 }),
            LatencySummary(nanoseconds: deliveries)
        )
    }

    /// Messages and bytes received over every connection of every member so far.
    private static func received(_ members: [ResumingMember]) -> (messages: Int, bytes: Int, membershipBytes: Int) {
        members.reduce((0, 0, 0)) { sum, member in
            member.history.reduce(sum) { sum, connection in
                let log = connection.member.log.withLock { ($0.received, $0.receivedBytes, $0.membershipBytes) }
                return (sum.0 + log.0, sum.1 + log.1, sum.2 + log.2)
            }
        }
    }

    /// Waits until no connected member received anything for 300 ms (at most `timeout`).
    private func waitUntilQuiet(_ members: [ResumingMember]) throws {
        let deadline = DispatchTime.now() + configuration.timeout
        var last = -1
        while true {
            let received = members.reduce(0) { sum, member in sum + (member.current?.log.withLock { $0.received } ?? 0) }
            if received == last { return }
            guard DispatchTime.now() < deadline else {
                throw BenchTarget.Failure(description: "the boards did not settle within \(Int(configuration.timeout)) s")
            }
            last = received
            Thread.sleep(forTimeInterval: 0.3)
        }
    }
}
