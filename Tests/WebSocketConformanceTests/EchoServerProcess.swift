import Foundation
import TestSupport

/// `corkboard-bench serve` (the server with the test WebSockets added) as a child process on an
/// ephemeral loopback port, with throwaway web root and data folders: the server the
/// conformance tests talk to, on `/ws/echo`.
final class EchoServerProcess {
    let server: ServerProcess
    let port: UInt16
    private let webRoot: TemporaryDirectory
    private let data: TemporaryDirectory

    init() throws {
        webRoot = try TemporaryDirectory("corkboard-web")
        try webRoot.write("index.html", "<!doctype html><title>conformance</title>")
        data = try TemporaryDirectory("corkboard-data")
        // Optimised: the compression groups push hundreds of megabytes through the echo, and a
        // debug build would make the run several times longer without testing anything more.
        server = try ServerProcess(
            [
                "serve", "--host", "127.0.0.1", "--port", "0",
                "--web-root", webRoot.path, "--data", data.path,
            ],
            executable: try ReleaseBuild.corkboardBench())
        guard let port = server.waitForListeningPort() else {
            throw PythonTools.Failure(
                """
                `corkboard-bench serve` did not start listening \
                (running: \(server.process.isRunning)):
                \(server.standardOutput)\(server.standardError)
                """)
        }
        self.port = port
    }

    var echoURL: String { "ws://127.0.0.1:\(port)/ws/echo" }

    var isRunning: Bool { server.process.isRunning }

    /// The server's log, for a failure message.
    var logTail: String { PythonTools.tail(server.standardError, lines: 40) }
}
