import ArgumentParser
import CorkboardBench
import Foundation

/// `corkboard-bench restart`: a reconnect storm after a server restart, SIGTERM then SIGKILL.
struct RestartBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restart",
        abstract:
            "A reconnect storm: clients on one big board and over many small ones, moves throughout; the server (SQLite) is stopped by SIGTERM, then SIGKILL, and started again; every client resumes with jittered backoff. Prints the time until all resumed, handshakes/s, the delay of live moves meanwhile, gaps and duplicates, and memory per idle member.",
        discussion:
            "Needs about one file descriptor per client in the bench and in the server: the bench raises its soft RLIMIT_NOFILE to the hard limit, which the server inherits (10,000 clients need a hard limit above 10,100)."
    )

    @Option(help: "Clients on the one big board.") var bigBoard = 5_000
    @Option(help: "Clients spread over --boards small boards.") var spread = 5_000
    @Option(help: "Small boards.") var boards = 100
    @Option(help: "Moves committed a second, throughout (a fifth on the big board).") var rate = 20.0
    @Option(help: "The clients' reconnect policy: swift (the Swift client's: 0.1 s doubling to 5 s) or sdk (web/sdk: 0.5 s doubling to 10 s, ±30 %).")
    var policy = "swift"
    @Option(help: "Threads making the clients' reconnect attempts.") var reconnectThreads = 512
    @Option(help: "Signals that stop the server, one round each: term, kill.") var signals = "term,kill"
    @Option(help: "The corkboard executable to run as the server (another build, for before/after); default: this one.")
    var serverExecutable: String?
    @Option(help: "Write the figures as JSON records to this file (see `corkboard-bench report`).") var json: String?

    func run() throws {
        let named = signals.split(separator: ",").map { $0 == "term" ? SIGTERM : $0 == "kill" ? SIGKILL : -1 }
        guard bigBoard >= 0, spread >= 0, bigBoard + spread > 0, boards > 0, rate > 0, reconnectThreads > 0,
            !named.isEmpty, !named.contains(-1), ["swift", "sdk"].contains(policy)
        else {
            throw ValidationError(
                "--big-board and --spread ≥ 0 (not both 0), --boards, --rate, --reconnect-threads positive, --signals of term and kill, --policy swift or sdk")
        }
        var configuration = RestartScenario.Configuration()
        configuration.bigBoardMembers = bigBoard
        configuration.spreadMembers = spread
        configuration.spreadBoards = boards
        configuration.rate = rate
        configuration.reconnectThreads = reconnectThreads
        configuration.signals = named
        configuration.executable = serverExecutable
        if policy == "sdk" { configuration.backoff = RestartScenario.browserSDKBackoff }
        say("restart: \(bigBoard) clients on one board + \(spread) over \(boards) boards, \(rate) moves/s, stopped by \(signals), \(policy) backoff")
        let result = try RestartScenario(configuration: configuration).run { say($0) }
        guard let json else { return }
        try BenchRecord.write(
            [BenchRecord(server: "corkboard", scenario: "restart", variant: "idle members", figures: ["kib_per_member": result.bytesPerMember / 1024])]
                + result.rounds.map { round in
                    BenchRecord(
                        server: "corkboard", scenario: "restart", variant: "\(bigBoard)+\(spread) \(round.signal) \(policy) backoff",
                        figures: [
                            "resume_seconds": round.resumeSeconds, "handshakes_per_second": round.handshakesPerSecond,
                            "peak_handshakes_per_second": Double(round.peakHandshakesPerSecond), "gaps": Double(round.gaps),
                            "duplicates": Double(round.duplicates), "snapshots": Double(round.snapshots),
                            "live_commit_p95_ms": round.liveCommit.p95, "calm_commit_p95_ms": round.calmCommit.p95,
                            "calm_delivery_p95_ms": round.calmDelivery.p95, "failed_attempts": Double(round.failedAttempts),
                            "messages": Double(round.messages), "bytes": Double(round.bytes),
                            "membership_bytes": Double(round.membershipBytes),
                        ],
                        latency: round.liveDelivery)
                }, to: json)
    }
}
