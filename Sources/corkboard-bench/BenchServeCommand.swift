import ArgumentParser
import CorkboardServeCommand

/// `corkboard-bench serve`: the Corkboard server exactly as `corkboard serve` runs it (the same
/// options, variables and defaults), with the test WebSockets `/ws/echo` and `/ws/broadcast`
/// added (`BenchEndpoints`). The benchmarks start it when they are given no `--url`; the
/// WebSocket conformance tests (Autobahn|Testsuite, a Python client, browsers) talk to it.
struct BenchServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the Corkboard server with the test WebSockets /ws/echo and /ws/broadcast added; not for production.",
        discussion: ServeArguments.discussion)

    @OptionGroup var arguments: ServeArguments

    func run() throws {
        try ServerMain.run(arguments) { router, configuration in BenchEndpoints.add(to: &router, options: configuration.webSocket) }
    }
}
