import ArgumentParser
import CorkboardBench
import Foundation

/// `corkboard-bench join-churn`: joins that leave at once, on a big board (issue #31).
struct JoinChurnBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "join-churn",
        abstract:
            "Join churn on a big board: threads connect, hello, read a little of the welcome and close, again and again, while one member commits moves; the joins made, the server's CPU, and the member's move latency."
    )

    @OptionGroup var target: SuiteTargetOptions
    @Option(help: "Items on the board (labels of --label-bytes).") var items = 10_000
    @Option(help: "Bytes of each item's label.") var labelBytes = 200
    @Option(help: "Threads joining and leaving.") var churners = 4
    @Option(help: "Seconds of churn.") var seconds = 20.0
    @Option(help: "Bytes each join reads before it closes.") var readBytes = 64 * 1024

    func run() throws {
        guard items > 0, churners > 0, seconds > 0, readBytes > 0 else {
            throw ValidationError("--items, --churners, --seconds and --read-bytes must be positive")
        }
        var configuration = JoinChurnScenario.Configuration()
        configuration.url = target.url
        configuration.items = items
        configuration.labelBytes = labelBytes
        configuration.churners = churners
        configuration.seconds = seconds
        configuration.readBytes = readBytes
        say("join-churn against \(target.server): \(items) items, \(churners) threads joining and leaving for \(seconds) s")
        let result = try JoinChurnScenario(configuration: configuration).run { say($0) }
        var figures = [
            "joins": Double(result.joins), "joins_per_second": Double(result.joins) / result.seconds, "board_bytes": Double(result.boardBytes),
        ]
        figures["server_cpu_seconds"] = result.serverCPUSeconds
        try target.write([
            BenchRecord(
                server: target.server, scenario: "join-churn", variant: "\(items) items, \(churners) churners", figures: figures,
                latency: result.moves)
        ])
    }
}
