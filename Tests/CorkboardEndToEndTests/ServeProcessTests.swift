import Foundation
import TestSupport
import Testing

/// `corkboard serve` as a user runs it: a real process, real signals, real exit codes.
@Suite(.threadsOfTheirOwn) struct ServeProcessTests {
    let webRoot: TemporaryDirectory
    let data: TemporaryDirectory

    init() throws {
        webRoot = try TemporaryDirectory("corkboard-web")
        try webRoot.write("index.html", "<!doctype html><title>hello</title>")
        data = try TemporaryDirectory("corkboard-data")
    }

    private func serve(_ extra: [String] = [], environment: [String: String] = [:], shellPrefix: String? = nil) throws -> ServerProcess {
        try ServerProcess(
            ["serve", "--web-root", webRoot.path, "--data", data.path] + extra,
            environment: environment, shellPrefix: shellPrefix)
    }

    @Test func sigtermShutsDownCleanlyWithExitZero() throws {
        let process = try serve(["--port", "0"])
        let port = try #require(process.waitForListeningPort())
        let keepAlive = try BlockingClient(port: port)
        try keepAlive.send("GET / HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(try keepAlive.receiveResponse().text == "<!doctype html><title>hello</title>")
        process.signal(SIGTERM)
        #expect(process.waitForExit() == 0)
        #expect(keepAlive.isClosedByPeer())
    }

    @Test func sigintAlsoExitsZero() throws {
        let process = try serve(["--port", "0"])
        #expect(process.waitForListeningPort() != nil)
        process.signal(SIGINT)
        #expect(process.waitForExit() == 0)
    }

    @Test func settingsComeFromTheEnvironment() throws {
        let process = try ServerProcess(
            ["serve"],
            environment: [
                "CORKBOARD_PORT": "0", "CORKBOARD_WEB_ROOT": webRoot.path, "CORKBOARD_DATA": data.path + "/env",
                "CORKBOARD_HOST": "::1",
            ])
        let port = try #require(process.waitForListeningPort())
        #expect(process.standardOutput.contains("http://[::1]:"))
        #expect(try BlockingClient.request(port: port, "GET / HTTP/1.1\r\nHost: t\r\n\r\n", host: "::1").status == 200)
        #expect(FileManager.default.fileExists(atPath: data.path + "/env"))
        process.signal(SIGTERM)
        #expect(process.waitForExit() == 0)
    }

    @Test func optionsWinOverTheEnvironment() throws {
        let process = try serve(["--port", "0"], environment: ["CORKBOARD_PORT": "1"])
        #expect(process.waitForListeningPort() != nil)
        process.signal(SIGTERM)
        #expect(process.waitForExit() == 0)
    }

    @Test func busyPortIsAOneLineError() throws {
        let first = try serve(["--port", "0"])
        let port = try #require(first.waitForListeningPort())
        let otherData = try TemporaryDirectory("corkboard-data")
        let second = try ServerProcess(["serve", "--web-root", webRoot.path, "--data", otherData.path, "--port", String(port)])
        #expect(second.waitForExit() == 1)
        let message = second.standardError.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(message == "corkboard: error: port \(port) on 127.0.0.1 is already in use (is another server running? choose one with --port)")
        first.signal(SIGTERM)
        #expect(first.waitForExit() == 0)
    }

    @Test func aDataFolderInUseIsAOneLineError() throws {
        let first = try serve(["--port", "0"])
        #expect(first.waitForListeningPort() != nil)
        let second = try serve(["--port", "0"])
        #expect(second.waitForExit() == 1)
        let message = second.standardError.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(message.hasPrefix("corkboard: error: the store cannot be used: the data directory \(data.path) is in use by another corkboard process (pid "))
        #expect(!message.contains("\n"))
        first.signal(SIGTERM)
        #expect(first.waitForExit() == 0)
        // Once the first has stopped, the folder is free again.
        let third = try serve(["--port", "0"])
        #expect(third.waitForListeningPort() != nil)
        third.signal(SIGTERM)
        #expect(third.waitForExit() == 0)
    }

    @Test func missingWebRootIsAOneLineError() throws {
        let process = try ServerProcess(["serve", "--port", "0", "--web-root", webRoot.path + "/absent", "--data", data.path])
        #expect(process.waitForExit() == 1)
        let message = process.standardError.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(message.hasPrefix("corkboard: error: web root '\(webRoot.path)/absent' does not exist"))
        #expect(!message.contains("\n"))
    }

    @Test func invalidEnvironmentValueIsRefused() throws {
        let process = try ServerProcess(["serve"], environment: ["CORKBOARD_PORT": "eighty"])
        #expect(process.waitForExit() == 64)
        #expect(process.standardError.contains("CORKBOARD_PORT='eighty'"))
    }

    @Test func helpListsEveryOptionWithItsVariable() throws {
        let process = try ServerProcess(["serve", "--help"])
        #expect(process.waitForExit() == 0)
        for variable in ["CORKBOARD_HOST", "CORKBOARD_PORT", "CORKBOARD_WEB_ROOT", "CORKBOARD_DATA", "CORKBOARD_LOOPS", "CORKBOARD_LOG_LEVEL"] {
            #expect(process.standardOutput.contains(variable))
        }
    }

    /// With few descriptors, accept fails with EMFILE; once clients leave, the server accepts again.
    /// (The limit leaves room for descriptors a child may inherit from tests running alongside.)
    @Test func keepsAcceptingAfterRunningOutOfDescriptors() throws {
        let process = try serve(["--port", "0"], shellPrefix: "ulimit -n 256")
        let port = try #require(process.waitForListeningPort())
        var hogs: [BlockingClient] = []
        // Connect until the server runs out of descriptors; later ones wait in the backlog.
        while hogs.count < 600 && !process.standardError.contains("accept paused") {
            hogs.append(try BlockingClient(port: port))
            if hogs.count % 50 == 0 { usleep(50_000) }
        }
        #expect(eventually(timeout: 10) { process.standardError.contains("accept paused") })
        hogs.removeAll()
        // Once they are gone, new clients are served again.
        var served = false
        _ = eventually(timeout: 15) {
            served = (try? BlockingClient.request(port: port, "GET / HTTP/1.1\r\nHost: t\r\n\r\n").status) == 200
            return served
        }
        #expect(served)
        #expect(eventually { process.standardError.contains("accepting again") })
        process.signal(SIGTERM)
        #expect(process.waitForExit() == 0)
    }
}
