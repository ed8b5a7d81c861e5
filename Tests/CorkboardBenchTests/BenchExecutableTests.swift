import Foundation
import TestSupport
import Testing

/// The benchmarks live in `corkboard-bench`, not in the production `corkboard`: the production
/// binary refuses `bench` and `--echo-endpoint` and serves no test WebSocket, while
/// `corkboard-bench` lists every benchmark and its `serve` echoes and broadcasts.
@Suite(.threadsOfTheirOwn) struct BenchExecutableTests {
    /// Every benchmark `corkboard bench` had before 0.28, and `serve`.
    static let subcommands = [
        "model", "ws-echo", "ws-fanout", "ws-memory", "hub", "durable", "fanout", "join-storm", "join-churn", "peers-flood", "ops",
        "cluster", "presence", "heavy", "memory", "report", "restart", "fold", "serve",
    ]

    let webRoot: TemporaryDirectory
    let data: TemporaryDirectory

    init() throws {
        webRoot = try TemporaryDirectory("corkboard-web")
        try webRoot.write("index.html", "<!doctype html><title>bench</title>")
        data = try TemporaryDirectory("corkboard-data")
    }

    private func serve(executable: String) throws -> (ServerProcess, UInt16) {
        let process = try ServerProcess(
            ["serve", "--port", "0", "--no-demo", "--store", "memory", "--web-root", webRoot.path, "--data", data.path],
            executable: executable)
        let port = try #require(process.waitForListeningPort(), "\(process.standardError)")
        return (process, port)
    }

    @Test func theProductionBinaryHasNoBenchSubcommand() throws {
        let process = try ServerProcess(["bench", "model"])
        #expect(process.waitForExit() == 64)
        #expect(process.standardError.contains("'bench'"), "\(process.standardError)")
        #expect(process.standardOutput.isEmpty)
    }

    @Test func theProductionServeRefusesTheEchoEndpointOption() throws {
        let process = try ServerProcess(["serve", "--port", "0", "--echo-endpoint", "--web-root", webRoot.path, "--data", data.path])
        #expect(process.waitForExit() == 64)
        #expect(process.standardError.contains("--echo-endpoint"), "\(process.standardError)")
        #expect(!process.standardOutput.contains("listening"))
    }

    @Test func theProductionServerServesNoTestWebSocket() throws {
        let (process, port) = try serve(executable: ServerProcess.executablePath)
        defer {
            process.signal(SIGTERM)
            _ = process.waitForExit()
        }
        for path in ["/ws/echo", "/ws/broadcast"] {
            let client = try WebSocketTestClient(port: port, path: path)
            #expect(client.handshakeResponse.status == 404, "\(path)")
        }
    }

    @Test func theBenchHelpListsEveryBenchmarkAndServe() throws {
        let process = try ServerProcess(["--help"], executable: ServerProcess.benchExecutablePath)
        #expect(process.waitForExit() == 0)
        let help = process.standardOutput
        #expect(help.contains("USAGE: corkboard-bench <subcommand>"), "\(help)")
        let listed = help.split(separator: "\n").compactMap { $0.split(separator: " ").first.map(String.init) }
        for subcommand in Self.subcommands {
            #expect(listed.contains(subcommand), "\(subcommand) is not in corkboard-bench --help")
        }
    }

    @Test func theBenchServeTakesEveryOptionOfTheProductionServe() throws {
        let production = try ServerProcess(["serve", "--help"])
        let bench = try ServerProcess(["serve", "--help"], executable: ServerProcess.benchExecutablePath)
        #expect(production.waitForExit() == 0 && bench.waitForExit() == 0)
        // The whole help, to its last line: the pipes' ends may be seen late (another child
        // spawned meanwhile can hold a copy of their write ends), and a loaded full run once
        // compared a help cut short.
        for process in [production, bench] {
            #expect(eventually(timeout: 20) { process.standardOutput.contains("Show help information.") })
        }
        func options(_ help: String) -> [Substring] {
            help.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "," }).filter { $0.hasPrefix("--") }
        }
        #expect(!options(production.standardOutput).isEmpty)
        #expect(options(bench.standardOutput) == options(production.standardOutput))
    }

    @Test func theBenchServeEchoesAndBroadcasts() throws {
        let (process, port) = try serve(executable: ServerProcess.benchExecutablePath)
        defer {
            process.signal(SIGTERM)
            _ = process.waitForExit()
        }
        let echo = try WebSocketTestClient(port: port, path: "/ws/echo")
        #expect(echo.handshakeResponse.status == 101)
        try echo.send(text: "hello")
        #expect(try echo.receiveText() == "hello")

        // Each joins the room before its own first message is read, so a member that gets its
        // own message back is in the room: the second's then reaches both, once each.
        let first = try WebSocketTestClient(port: port, path: "/ws/broadcast")
        try first.send(text: "one")
        #expect(try first.receiveText() == "one")
        let second = try WebSocketTestClient(port: port, path: "/ws/broadcast")
        try second.send(text: "two")
        #expect(try second.receiveText() == "two")
        #expect(try first.receiveText() == "two")
        // The board WebSocket is the real server's, as in `corkboard serve`.
        let board = try WebSocketTestClient(port: port, path: "/ws")
        #expect(board.handshakeResponse.status == 101)
    }
}
