import CorkboardClient
import CorkboardModel
import CorkboardWire
import Foundation
import TestSupport

/// A test's failure with a message saying what was awaited and what came instead.
struct ClientTestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The real `corkboard serve` in a child process, with its own web and data folders, which
/// it keeps across `restart()` (same port, same data: clients resume across it).
final class CorkboardTestServer: @unchecked Sendable {
    let webRoot: TemporaryDirectory
    let data: TemporaryDirectory
    let extraArguments: [String]
    private(set) var process: ServerProcess
    private(set) var port: UInt16

    /// `demo`: whether the demo board is created. `extra`: more `serve` options.
    init(demo: Bool = true, extra: [String] = []) throws {
        webRoot = try TemporaryDirectory("corkboard-client-web")
        try webRoot.write("index.html", "<!doctype html><title>bots</title>")
        data = try TemporaryDirectory("corkboard-client-data")
        // Durable enough for a test that restarts the process gracefully, and much faster.
        extraArguments = (demo ? [] : ["--no-demo"]) + ["--sync", "normal"] + extra
        (process, port) = try Self.launch(port: 0, webRoot: webRoot.path, data: data.path, extra: extraArguments)
    }

    private static func launch(port: UInt16, webRoot: String, data: String, extra: [String]) throws -> (ServerProcess, UInt16) {
        let process = try ServerProcess(["serve", "--port", String(port), "--web-root", webRoot, "--data", data] + extra)
        guard let port = process.waitForListeningPort() else {
            throw ClientTestFailure("the server did not start: \(process.standardError)")
        }
        return (process, port)
    }

    deinit { stop() }

    /// SIGTERM (members get 1001), and waits for the exit.
    func stop() {
        guard process.process.isRunning else { return }
        process.signal(SIGTERM)
        _ = process.waitForExit()
    }

    /// Starts the server again on the same port with the same data.
    func start() throws {
        // The port was just released; another test's server could in principle grab it, so a
        // failed start is retried a few times before the test fails.
        var lastError: Error?
        for _ in 0..<20 {
            do {
                (process, _) = try Self.launch(port: port, webRoot: webRoot.path, data: data.path, extra: extraArguments)
                return
            } catch {
                lastError = error
                usleep(100_000)
            }
        }
        throw lastError!
    }

    var url: String { "ws://127.0.0.1:\(port)" }

    /// `through`: a proxy to this server (`SeveringProxy(to: port)`) the client connects
    /// through instead, for a test that breaks its connections as a network failure would.
    func configuration(board: String, name: String, token: String? = nil, through proxy: SeveringProxy? = nil) -> BoardClientConfiguration {
        var configuration = BoardClientConfiguration(host: "127.0.0.1", port: proxy?.port ?? port, board: board, name: name, token: token)
        // Tests drop connections on purpose: come back fast.
        configuration.reconnectBackoff = Backoff(initial: 0.05, maximum: 0.5)
        configuration.joinTimeout = 5
        return configuration
    }

    func client(board: String, name: String, token: String? = nil, through proxy: SeveringProxy? = nil) -> BoardClient {
        BoardClient(configuration(board: board, name: name, token: token, through: proxy))
    }

    // MARK: HTTP

    func get(_ target: String) throws -> TestHTTPResponse {
        try BlockingClient.request(port: port, "GET \(target) HTTP/1.1\r\nHost: test\r\nAccept: application/json\r\n\r\n")
    }

    func post(_ target: String, body: Data) throws -> TestHTTPResponse {
        let head = "POST \(target) HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nContent-Length: \(body.count)\r\n\r\n"
        let connection = try BlockingClient(port: port)
        try connection.send(Array(head.utf8) + Array(body))
        return try connection.receiveResponse()
    }

    /// `GET /api/boards/{id}`: the server's durable board, seq and epoch.
    func document(_ board: String) throws -> BoardDocument {
        let response = try get("/api/boards/\(board)")
        guard response.status == 200 else { throw ClientTestFailure("GET board \(board): \(response.status) \(response.text)") }
        return try JSONDecoder().decode(BoardDocument.self, from: Data(response.body))
    }

    /// `GET /api/boards/{id}/ops?since=N`, page by page (following `next`).
    func events(_ board: String, since: Int = 0) throws -> [CommittedEvent] {
        var events: [CommittedEvent] = []
        var cursor = since
        for _ in 0..<10_000 {
            let response = try get("/api/boards/\(board)/ops?since=\(cursor)")
            guard response.status == 200 else { throw ClientTestFailure("GET ops of \(board): \(response.status) \(response.text)") }
            let page = try JSONDecoder().decode(EventPage.self, from: Data(response.body))
            events += page.events
            guard let next = page.next else { return events }
            cursor = next
        }
        throw ClientTestFailure("GET ops of \(board): the pages did not end")
    }

    /// `POST /api/boards`; the board as created.
    @discardableResult
    func create(_ board: Board) throws -> BoardDocument {
        let response = try post("/api/boards", body: try WireFormat.encode(board))
        guard response.status == 201 else { throw ClientTestFailure("POST board \(board.id): \(response.status) \(response.text)") }
        return try JSONDecoder().decode(BoardDocument.self, from: Data(response.body))
    }

    /// `POST /api/boards/{id}/ops`: an operation by someone else (a fresh HTTP client).
    func perform(_ board: String, _ request: OperationRequest) throws -> ServerMessage {
        let response = try post("/api/boards/\(board)/ops", body: try WireFormat.encode(ClientMessage.operation(request)))
        return try WireFormat.decodeServerMessage(Data(response.body))
    }
}

/// A board of `collections` collections named `c0`… holding `items` items each (`<board>-c0-i0`…).
func makeBoard(_ id: String, collections: Int = 3, items: Int = 4) -> Board {
    Board(
        id: id, title: "Board \(id)",
        collections: (0..<collections).map { c in
            BoardCollection(
                id: "c\(c)", title: "Column \(c)",
                items: (0..<items).map { i in
                    Item(id: "\(id)-c\(c)-i\(i)", label: "Card \(c).\(i)")
                })
        })
}
