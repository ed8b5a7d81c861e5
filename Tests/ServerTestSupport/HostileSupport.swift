import CorkboardModel
import CorkboardWire
import Foundation
import Glibc
import TestSupport
import Testing

// Shared by the hostile-client suites: what every scenario checks afterwards, and a real
// `corkboard serve` child for the scenarios where per-process limits matter.

/// Blocking work on a thread of its own, waited for from another blocking thread (a
/// scenario's second client that runs while the first one is checked).
public final class Background<T>: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var result: Result<T, Error>?

    public init(_ work: @escaping @Sendable () throws -> T) {
        Thread {
            self.result = Result { try work() }
            self.done.signal()
        }.start()
    }

    public func wait(timeout: Double = 30) throws -> T {
        guard done.wait(timeout: .now() + timeout) == .success else { throw HubTestFailure("background work still running after \(timeout) s") }
        return try result!.get()
    }
}

/// The checks after a hostile scenario: the server is up, a well-behaved client on the same
/// board commits a move and sees no error, and every event committed before is still there.
public enum Unharmed {
    /// Commits `moves` moves as a well-behaved client and returns the board's events so far.
    public static func seed(port: UInt16, board: String = "board", token: String? = nil, moves: Int = 3) throws -> [CommittedEvent] {
        let client = try BoardTestClient(port: port, board: board, name: "Seeder", token: token)
        for _ in 0..<moves { try commitAMove(client) }
        try client.close()
        return try events(port: port, board: board, token: token)
    }

    public static func expect(
        port: UInt16, board: String = "board", token: String? = nil, eventsBefore: [CommittedEvent],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let health = try BlockingClient.request(port: port, "GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(health.status == 200, "the server answers /healthz", sourceLocation: sourceLocation)
        let witness = try BoardTestClient(port: port, board: board, name: "Witness", token: token)
        let event = try commitAMove(witness)
        let errors = (try witness.sync() + witness.log).filter { $0.typeName == "error" }
        #expect(errors.isEmpty, "the witness saw errors: \(errors)", sourceLocation: sourceLocation)
        let after = try events(port: port, board: board, token: token)
        #expect(
            Array(after.prefix(eventsBefore.count)) == eventsBefore, "every event committed before is still there",
            sourceLocation: sourceLocation)
        #expect(after.last == event, "the witness's move is the last event", sourceLocation: sourceLocation)
        #expect(
            witness.board == (try document(port: port, board: board, token: token)).board,
            "the witness's replica is the server's board", sourceLocation: sourceLocation)
        try witness.close()
    }

    /// Moves the first item of the first non-empty collection to the end of another one.
    @discardableResult
    public static func commitAMove(_ client: BoardTestClient) throws -> CommittedEvent {
        // Up to date first, so the move is planned on the board as it is (not a noop).
        _ = try client.sync()
        let collections = client.board.collections
        guard let from = collections.firstIndex(where: { !$0.items.isEmpty }), collections.count > 1 else {
            throw HubTestFailure("the board has nothing to move")
        }
        let to = collections[(from + 1) % collections.count].id
        return try client.commit(.move(sources: [collections[from].items[0].id], destination: Destination(collection: to)))
    }

    /// The whole log, page by page (following `next`).
    public static func events(port: UInt16, board: String, token: String?) throws -> [CommittedEvent] {
        var events: [CommittedEvent] = []
        for _ in 0..<10_000 {
            let response = try get(port, "/api/boards/\(board)/ops?since=\(events.last?.seq ?? 0)", token: token)
            guard response.status == 200 else { throw HubTestFailure("GET ops: \(response.status) \(response.text)") }
            let page = try JSONDecoder().decode(EventPage.self, from: Data(response.body))
            events += page.events
            if page.next == nil { return events }
        }
        throw HubTestFailure("GET ops of \(board): the pages did not end")
    }

    public static func document(port: UInt16, board: String, token: String?) throws -> BoardDocument {
        let response = try get(port, "/api/boards/\(board)", token: token)
        guard response.status == 200 else { throw HubTestFailure("GET board: \(response.status) \(response.text)") }
        return try JSONDecoder().decode(BoardDocument.self, from: Data(response.body))
    }

    public static func get(_ port: UInt16, _ target: String, token: String?) throws -> TestHTTPResponse {
        let authorization = token.map { "Authorization: Bearer \($0)\r\n" } ?? ""
        return try BlockingClient.request(port: port, "GET \(target) HTTP/1.1\r\nHost: t\r\n\(authorization)\r\n")
    }

    public static func post(_ port: UInt16, _ target: String, body: String, token: String?) throws -> TestHTTPResponse {
        let authorization = token.map { "Authorization: Bearer \($0)\r\n" } ?? ""
        return try BlockingClient.request(
            port: port, "POST \(target) HTTP/1.1\r\nHost: t\r\n\(authorization)Content-Length: \(body.utf8.count)\r\n\r\n\(body)")
    }

    /// `POST /api/boards` with the standard test board under `id`; requires 201.
    public static func createBoard(port: UInt16, id: String = "board", token: String? = nil) throws {
        var board = HubFixture.standardBoard
        board.id = id
        let body = String(decoding: try WireFormat.encode(BoardAPI.newBoardBody(board)), as: UTF8.self)
        let response = try post(port, "/api/boards", body: body, token: token)
        guard response.status == 201 else { throw HubTestFailure("creating board \(id): \(response.status) \(response.text)") }
    }
}

/// A real `corkboard serve` child with the standard board `board`, its own folders, and a
/// look at its memory and descriptors through /proc.
public final class ChildServer: @unchecked Sendable {
    public let folder: TemporaryDirectory
    public let process: ServerProcess
    public let port: UInt16

    /// `tokens` is written to a token file and passed with `--tokens`; `ownerToken` creates the
    /// board, unless `createsBoard` is false (a node whose database has it already).
    public init(
        _ extra: [String] = [], tokens: String? = nil, ownerToken: String? = nil, createsBoard: Bool = true,
        startTimeout: Double = 20
    ) throws {
        folder = try TemporaryDirectory("corkboard-hostile")
        try folder.write("web/index.html", "<!doctype html><title>hostile</title>")
        var arguments = [
            "serve", "--port", "0", "--no-demo", "--log-level", "warning", "--loops", "2",
            "--web-root", folder.path + "/web", "--data", folder.path + "/data",
        ]
        if let tokens { arguments += ["--tokens", try folder.write("tokens.json", tokens)] }
        process = try ServerProcess(arguments + extra)
        guard let port = process.waitForListeningPort(timeout: startTimeout) else {
            throw HubTestFailure("corkboard serve \(extra.joined(separator: " ")) did not start: \(process.standardError)")
        }
        self.port = port
        if createsBoard { try Unharmed.createBoard(port: port, token: ownerToken) }
    }

    deinit {
        process.signal(SIGTERM)
        _ = process.waitForExit(timeout: 10)
    }

    public var tokenFile: String { folder.path + "/tokens.json" }
    public var isRunning: Bool { process.process.isRunning }

    /// Resident memory in bytes (VmRSS).
    public var residentBytes: Int {
        let status = (try? String(contentsOfFile: "/proc/\(process.process.processIdentifier)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1024
    }

    /// Descriptors the server holds open.
    public var openDescriptors: Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(process.process.processIdentifier)/fd").count) ?? -1
    }
}

/// Lets this test process open thousands of sockets (as `corkboard-bench` does).
public func raiseDescriptorLimit() -> Int {
    var limit = rlimit()
    getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    limit.rlim_cur = limit.rlim_max
    setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    return Int(limit.rlim_cur)
}
