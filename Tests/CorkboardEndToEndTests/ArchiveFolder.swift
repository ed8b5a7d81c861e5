import Foundation
import TestSupport
import Testing

/// A data folder and a web root, and the real `corkboard` run against them as a user runs it:
/// `serve`, `export`, `import`.
struct ArchiveFolder {
    let webRoot: TemporaryDirectory
    let data: TemporaryDirectory

    init() throws {
        webRoot = try TemporaryDirectory("corkboard-web")
        try webRoot.write("index.html", "<!doctype html><title>hello</title>")
        data = try TemporaryDirectory("corkboard-data")
    }

    func serve() throws -> (ServerProcess, BoardAPI) {
        let process = try ServerProcess(["serve", "--port", "0", "--web-root", webRoot.path, "--data", data.path])
        let port = try #require(process.waitForListeningPort())
        return (process, BoardAPI(port: port))
    }

    /// Runs a command to its end; returns its exit status, standard output and standard error.
    func run(_ arguments: [String], environment: [String: String] = [:]) throws -> (Int32?, String, String) {
        let process = try ServerProcess(arguments, environment: environment)
        let status = process.waitForExit()
        return (status, process.standardOutput, process.standardError)
    }

    func stop(_ process: ServerProcess) {
        process.signal(SIGTERM)
        #expect(process.waitForExit() == 0)
    }
}
