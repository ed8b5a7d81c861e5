import ArgumentParser
import CorkboardBench
import Foundation

/// `corkboard-bench peers-flood`: `peers.list` requests that ask for pages of long names (issue #31).
struct PeersFloodBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "peers-flood",
        abstract:
            "A peers.list flood: peers with long names on one board, members asking for pages of 200 of them many times a second, one member committing moves; the bytes sent to the flooders, the server's CPU, and the member's move latency."
    )

    @OptionGroup var target: SuiteTargetOptions
    @Option(help: "Peers on the board.") var peers = 200
    @Option(help: "Bytes of each peer's name (a server refuses more than its cap).") var nameBytes = 256
    @Option(help: "Members sending peers.list.") var flooders = 4
    @Option(help: "peers.list per second from each.") var rate = 60.0
    @Option(help: "Seconds of flood.") var seconds = 15.0

    func run() throws {
        guard peers > 0, nameBytes > 0, flooders > 0, rate > 0, seconds > 0 else {
            throw ValidationError("--peers, --name-bytes, --flooders, --rate and --seconds must be positive")
        }
        var configuration = PeersFloodScenario.Configuration()
        configuration.url = target.url
        configuration.peers = peers
        configuration.nameBytes = nameBytes
        configuration.flooders = flooders
        configuration.rate = rate
        configuration.seconds = seconds
        say("peers-flood against \(target.server): \(peers) peers of \(nameBytes)-byte names, \(flooders) flooders at \(rate)/s for \(seconds) s")
        let result = try PeersFloodScenario(configuration: configuration).run { say($0) }
        var figures = [
            "requests": Double(result.requests), "sent_bytes": Double(result.sentBytes),
            "sent_bytes_per_second": Double(result.sentBytes) / result.seconds,
        ]
        figures["server_cpu_seconds"] = result.serverCPUSeconds
        try target.write([
            BenchRecord(
                server: target.server, scenario: "peers-flood", variant: "\(peers) peers × \(nameBytes) bytes, \(flooders) flooders",
                figures: figures, latency: result.moves)
        ])
    }
}
