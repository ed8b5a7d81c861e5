import ArgumentParser
import CorkboardBench

/// `corkboard bench`: benchmarks that print figures. Subcommands arrive with the issues that need them.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Run a benchmark and print its figures.",
        subcommands: [ModelBenchCommand.self])
}

/// `corkboard bench model`: resolved operations per second of one board's sequencer.
struct ModelBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "model",
        abstract: "Resolve random moves on a 10 × 1,000 board with base seqs up to 100 behind.")

    @Option(help: "Number of operations to resolve.")
    var ops = 200_000

    @Option(help: "Seed of the random workload.")
    var seed: UInt64 = 1

    func run() throws {
        var configuration = ModelBenchmark.Configuration()
        configuration.operations = ops
        configuration.seed = seed
        let benchmark = ModelBenchmark(configuration: configuration)
        print("corkboard bench model: \(configuration.collections) collections × \(configuration.itemsPerCollection) items, seed \(seed)")
        print(try benchmark.run())
    }
}
