import ArgumentParser
import CorkboardBench
import Foundation

/// `corkboard-bench cpu`: the server's CPU on the fixed workload of issue #36.
struct CpuBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cpu",
        abstract:
            "Server CPU (user and system, from /proc) on a fixed workload: clients join one board in steps, the same moves at each step, every committed checked delivered exactly once and in order."
    )

    @OptionGroup var target: SuiteTargetOptions
    @Option(help: "The process id of the server at --url, to read its CPU.") var pid: Int32?
    @Option(help: "Steps.") var steps = 3
    @Option(help: "Clients added per step.") var step = 1_000
    @Option(help: "Moves per step.") var moves = 300
    @Option(help: "Moves outstanding, each slot's from the same member.") var inFlight = 4

    func run() throws {
        guard steps > 0, moves > 0, inFlight > 0, step >= inFlight else {
            throw ValidationError("--steps, --moves and --in-flight must be positive, --step at least --in-flight")
        }
        var configuration = CpuScenario.Configuration()
        configuration.url = target.url
        configuration.pid = pid
        configuration.steps = steps
        configuration.step = step
        configuration.movesPerStep = moves
        configuration.inFlight = inFlight
        say("cpu against \(target.server): \(steps) steps of \(step) clients, \(moves) moves each (\(inFlight) in flight), joins included")
        let result = try CpuScenario(configuration: configuration).run { say($0) }
        try target.write([
            BenchRecord(
                server: target.server, scenario: "cpu",
                figures: [
                    "cpu_seconds": result.cpu.totalSeconds, "user_seconds": result.cpu.userSeconds,
                    "system_seconds": result.cpu.systemSeconds, "clients": Double(result.clients), "moves": Double(result.moves),
                    "deliveries": Double(result.deliveries), "microseconds_per_delivery": result.microsecondsPerDelivery,
                    "wall_seconds": result.wallSeconds,
                ],
                notes: ["\(steps) steps of \(step) clients, \(moves) moves each"])
        ])
    }
}

/// `corkboard-bench joins`: the server's CPU for clients joining one board and staying.
struct JoinsBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "joins",
        abstract:
            "Server CPU (user and system, from /proc) for clients joining one board a bounded number at a time and staying, each join announced to those there as the server does."
    )

    @OptionGroup var target: SuiteTargetOptions
    @Option(help: "The process id of the server at --url, to read its CPU.") var pid: Int32?
    @Option(help: "Clients joining.") var joins = 3_000
    @Option(help: "Clients joining at once.") var concurrency = 50

    func run() throws {
        guard joins > 0, concurrency > 0 else { throw ValidationError("--joins and --concurrency must be positive") }
        var configuration = JoinsScenario.Configuration()
        configuration.url = target.url
        configuration.pid = pid
        configuration.joiners = joins
        configuration.concurrency = concurrency
        say("joins against \(target.server): \(joins) clients join one board, \(concurrency) at a time, and stay")
        let result = try JoinsScenario(configuration: configuration).run { say($0) }
        try target.write([
            BenchRecord(
                server: target.server, scenario: "joins",
                figures: [
                    "cpu_seconds": result.cpu.totalSeconds, "user_seconds": result.cpu.userSeconds,
                    "system_seconds": result.cpu.systemSeconds, "joins": Double(result.joiners), "concurrency": Double(concurrency),
                    "milliseconds_per_join": result.millisecondsPerJoin, "join_seconds": result.joinSeconds,
                    "messages": Double(result.messages), "bytes": Double(result.bytes),
                    "membership_bytes": Double(result.membershipBytes),
                ])
        ])
    }
}
