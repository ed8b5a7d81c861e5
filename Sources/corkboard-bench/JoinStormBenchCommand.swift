import ArgumentParser
import CorkboardBench
import Foundation

/// `corkboard-bench join-storm`: a board of N members, M more join at once.
struct JoinStormBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "join-storm",
        abstract:
            "A join storm: N members on one board, then M more join at once; the joins' time, the bytes the members received, and the fan-out p95 afterwards.")

    @OptionGroup var target: SuiteTargetOptions
    @Option(help: "Members on the board before the storm.") var members = 5_000
    @Option(help: "Clients joining in the storm.") var joiners = 1_000
    @Option(help: "Moves measured afterwards.") var moves = 50

    func run() throws {
        guard members > 0, joiners > 0, moves > 0 else { throw ValidationError("--members, --joiners and --moves must be positive") }
        var configuration = JoinStormScenario.Configuration()
        configuration.url = target.url
        configuration.members = members
        configuration.joiners = joiners
        configuration.moves = moves
        say("join-storm against \(target.server): \(members) members, then \(joiners) join, then \(moves) moves")
        let result = try JoinStormScenario(configuration: configuration).run { say($0) }
        try target.write([
            BenchRecord(
                server: target.server, scenario: "join-storm", variant: "\(members)+\(joiners)",
                figures: [
                    "join_seconds": result.joinSeconds, "settle_seconds": result.settleSeconds, "messages": Double(result.messages),
                    "bytes": Double(result.bytes),
                ],
                latency: result.fanout.latency, steps: [result.fanout])
        ])
    }
}
