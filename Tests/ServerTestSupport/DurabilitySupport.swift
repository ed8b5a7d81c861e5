import CorkboardModel
import CorkboardWire
import Dispatch
import Foundation
import Logging
import TestSupport
import Testing

@testable import CorkboardServer

// Helpers shared by the Durability suites: servers that stop (cleanly or by SIGKILL) and
// start again on the same data folder, and the checks every restart makes.

/// An in-process server whose data folder outlives it: `start()`, `stop()` (the graceful
/// shutdown, which closes the store), `start()` again on the same files. One at a time.
public final class RestartableServer {
    public let webRoot: TemporaryDirectory
    public let data: TemporaryDirectory
    private let configure: (inout ServerConfiguration) -> Void
    public private(set) var server: CorkboardServer?
    public private(set) var port: UInt16 = 0

    /// The folder the SQLite store lives in (`corkboard.sqlite`, `corkboard.lock`).
    public var dataPath: String { data.path + "/db" }

    public init(configure: @escaping (inout ServerConfiguration) -> Void = { _ in }) throws {
        webRoot = try TemporaryDirectory("corkboard-web")
        try webRoot.write("index.html", "<!doctype html><title>durability</title>")
        data = try TemporaryDirectory("corkboard-durable")
        self.configure = configure
    }

    deinit { stop() }

    @discardableResult
    public func start() throws -> UInt16 {
        precondition(server == nil, "one server at a time on a data folder")
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.webRoot = webRoot.path
        configuration.dataDirectory = dataPath
        configuration.loopCount = 2
        configuration.createsDemoBoard = false
        // The tests leave clients connected across a stop, reading nothing (as a client whose
        // server went away would); the shutdown need not wait the default 5 s for their close.
        configuration.webSocket.closeTimeout = .milliseconds(300)
        configure(&configuration)
        var logger = Logger(label: "durability-server")
        logger.logLevel = .critical
        let server = try CorkboardServer(configuration: configuration, logger: logger)
        port = try server.start().port
        self.server = server
        return port
    }

    /// The graceful shutdown: every connection closed, then the store closed (its lock released).
    public func stop() {
        guard let server else { return } // stopped already: a second stop (a test's and its defer's) does nothing
        self.server = nil
        let done = DispatchSemaphore(value: 0)
        server.shutdown { done.signal() }
        let stopped = done.wait(timeout: .now() + 10) == .success
        #expect(stopped, "the server shut down within 10 s")
    }

    public var api: BoardAPI { BoardAPI(port: port) }
}

/// `corkboard serve` as a child process on a given data folder, with the options the
/// issue names: `--port 0 --data DIR --no-demo --web-root WEB`, plus `--sync` and no
/// rate limit (the crash test pipelines faster than the default 2,000 operations/s).
public final class ServedChild {
    public let process: ServerProcess
    public let port: UInt16

    public convenience init(data: String, webRoot: String, sync: String = "full") throws {
        try self.init(data: data, options: ["--web-root", webRoot, "--sync", sync, "--op-rate", "0", "--log-level", "error"])
    }

    /// `corkboard serve --port 0 --data DATA --no-demo` with `options`.
    public init(data: String, options: [String]) throws {
        process = try ServerProcess(["serve", "--port", "0", "--data", data, "--no-demo"] + options)
        guard let port = process.waitForListeningPort() else {
            throw HubTestFailure("corkboard serve did not start: \(process.standardError)")
        }
        self.port = port
    }

    deinit {
        if process.process.isRunning {
            process.signal(SIGKILL)
            _ = process.waitForExit(timeout: 5)
        }
    }

    public var api: BoardAPI { BoardAPI(port: port) }

    /// SIGKILL: no shutdown code runs, whatever was not yet in the WAL is lost.
    public func crash() throws {
        process.signal(SIGKILL)
        guard process.waitForExit(timeout: 10) != nil else { throw HubTestFailure("corkboard did not die on SIGKILL") }
        #expect(process.process.terminationReason == .uncaughtSignal)
    }

    /// SIGTERM: the graceful shutdown, exit 0.
    public func stop() {
        process.signal(SIGTERM)
        #expect(process.waitForExit() == 0, "stderr: \(process.standardError)")
    }
}

/// A web root for child servers.
public func durabilityWebRoot() throws -> TemporaryDirectory {
    let webRoot = try TemporaryDirectory("corkboard-web")
    try webRoot.write("index.html", "<!doctype html><title>durability</title>")
    return webRoot
}

public enum Durability {
    /// Checks a board's history as the server serves it: seqs 1…n without a gap, no opId
    /// twice, and `initial` with every event applied in order is the server's board
    /// (so no event is half-applied or missing). Returns the history.
    @discardableResult
    public static func expectConsistentHistory(
        _ api: BoardAPI, board id: String, from initial: Board, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> (history: [CommittedEvent], document: BoardDocument) {
        let document = try api.document(id)
        let history = try api.events(id, since: 0)
        #expect(history.map(\.seq) == Array(0..<history.count).map { $0 + 1 }, "seqs 1…n in order", sourceLocation: sourceLocation)
        #expect(history.count == document.seq, "the history reaches the board's seq", sourceLocation: sourceLocation)
        let opIds = history.map(\.opId)
        #expect(Set(opIds).count == opIds.count, "no opId twice in the history", sourceLocation: sourceLocation)
        var replay = Replica(board: initial, seq: 0)
        for event in history { try replay.apply(event) }
        #expect(replay.board == document.board, "the history replayed on the initial board is the served board", sourceLocation: sourceLocation)
        let ids = document.board.allItemIDs
        #expect(Set(ids).count == ids.count, "no item twice", sourceLocation: sourceLocation)
        return (history, document)
    }
}
