import ArgumentParser
import CorkboardServer

/// `corkboard-bench`: the benchmarks, apart from the production `corkboard` (as NIO and
/// Hummingbird keep theirs in packages of their own), and `serve`, the server they measure.
@main
struct CorkboardBenchMain: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "corkboard-bench",
        abstract: "Corkboard's benchmarks: each runs and prints its figures; `serve` runs the server they measure.",
        version: CorkboardVersion.line,
        subcommands: [
            ModelBenchCommand.self, WebSocketEchoBenchCommand.self, WebSocketFanoutBenchCommand.self, WebSocketMemoryBenchCommand.self,
            HubBenchCommand.self, DurableBenchCommand.self, FanoutBenchCommand.self, JoinStormBenchCommand.self, JoinChurnBenchCommand.self,
            PeersFloodBenchCommand.self, OpsBenchCommand.self, ClusterBenchCommand.self,
            PresenceBenchCommand.self, HeavyEditorBenchCommand.self, MemoryBenchCommand.self, CpuBenchCommand.self, JoinsBenchCommand.self,
            ReportBenchCommand.self,
            RestartBenchCommand.self, FoldBenchCommand.self, BenchServeCommand.self,
        ])
}
