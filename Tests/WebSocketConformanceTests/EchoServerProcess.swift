import Foundation
import TestSupport

/// `corkboard serve --echo-endpoint` as a child process on an ephemeral loopback port, with
/// throwaway web root and data folders: the server the conformance tests talk to.
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
                "serve", "--host", "127.0.0.1", "--port", "0", "--echo-endpoint",
                "--web-root", webRoot.path, "--data", data.path,
            ],
            executable: try ReleaseBuild.corkboard())
        guard let port = server.waitForListeningPort() else {
            // Most likely a build without the echo endpoint: the option parser says so here.
            throw PythonTools.Failure(
                """
                `corkboard serve --echo-endpoint` did not start listening \
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
