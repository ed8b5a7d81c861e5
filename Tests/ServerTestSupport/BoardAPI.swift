import CorkboardModel
import CorkboardServer
import CorkboardWire
import Foundation
import TestSupport
import Testing

/// One `/api` response: status, headers and the body decoded as JSON where it is JSON.
public struct APIResponse: CustomStringConvertible {
    public let http: TestHTTPResponse

    public init(http: TestHTTPResponse) { self.http = http }

    public var status: Int { http.status }
    public var text: String { http.text }
    public var json: JSONValue? { try? JSONDecoder().decode(JSONValue.self, from: Data(http.body)) }
    public var object: JSONObject? { json?.objectValue }

    public func decode<T: Decodable>(_ type: T.Type) throws -> T {
        do {
            return try JSONDecoder().decode(type, from: Data(http.body))
        } catch {
            throw HubTestFailure("cannot decode \(type) from \(status) \(text): \(error)")
        }
    }

    /// The body as a server message (a `committed` or `rejected` answer to an operation, or an `error`).
    public func message() throws -> ServerMessage {
        do {
            return try WireFormat.decodeServerMessage(Data(http.body))
        } catch {
            throw HubTestFailure("body of \(status) is not a server message: \(text)")
        }
    }

    public var description: String { "\(status) \(text)" }
}

/// The HTTP API (docs/protocol.md#8-http-api) through `BlockingClient`: one request per
/// connection.
public struct BoardAPI: Sendable {
    public let port: UInt16

    public init(port: UInt16) { self.port = port }

    public func get(_ target: String) throws -> APIResponse {
        APIResponse(http: try BlockingClient.request(port: port, "GET \(target) HTTP/1.1\r\nHost: test\r\nAccept: application/json\r\n\r\n"))
    }

    /// Any request: `method` on `target` with extra header lines and a body.
    public func send(_ method: String, _ target: String, headers: [String] = [], body: String = "") throws -> APIResponse {
        let lines = (headers + ["Content-Length: \(body.utf8.count)"]).map { $0 + "\r\n" }.joined()
        return APIResponse(http: try BlockingClient.request(port: port, "\(method) \(target) HTTP/1.1\r\nHost: test\r\n\(lines)\r\n\(body)"))
    }

    public func delete(_ target: String, token: String? = nil) throws -> APIResponse {
        try send("DELETE", target, headers: token.map { ["Authorization: Bearer \($0)"] } ?? [])
    }

    public func post(_ target: String, body: String) throws -> APIResponse {
        try post(target, bytes: Array(body.utf8))
    }

    public func post(_ target: String, bytes: [UInt8]) throws -> APIResponse {
        let head = "POST \(target) HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nContent-Length: \(bytes.count)\r\n\r\n"
        let client = try BlockingClient(port: port)
        try client.send(Array(head.utf8) + bytes)
        return APIResponse(http: try client.receiveResponse())
    }

    public func post(_ target: String, json: JSONValue) throws -> APIResponse {
        try post(target, bytes: Array(try WireFormat.encode(json)))
    }

    /// `POST /api/boards`; requires 201 and returns the created board's document.
    @discardableResult
    public func createBoard(_ board: Board) throws -> BoardDocument {
        let response = try post("/api/boards", json: Self.newBoardBody(board))
        guard response.status == 201 else { throw HubTestFailure("creating board \(board.id): \(response)") }
        return try response.decode(BoardDocument.self)
    }

    /// `GET /api/boards/{id}`; requires 200.
    public func document(_ id: String) throws -> BoardDocument {
        let response = try get("/api/boards/\(id)")
        guard response.status == 200 else { throw HubTestFailure("GET board \(id): \(response)") }
        return try response.decode(BoardDocument.self)
    }

    /// `GET /api/boards/{id}/ops?since=N` (no `since` when nil), then the pages after it
    /// (following `next`); requires 200.
    public func events(_ id: String, since: Int? = nil) throws -> [CommittedEvent] {
        var events: [CommittedEvent] = []
        var query = since.map { "?since=\($0)" } ?? ""
        for _ in 0..<10_000 {
            let response = try get("/api/boards/\(id)/ops" + query)
            guard response.status == 200 else { throw HubTestFailure("GET ops of \(id)\(query): \(response)") }
            let page = try response.decode(EventPage.self)
            events += page.events
            guard let next = page.next else { return events }
            query = "?since=\(next)"
        }
        throw HubTestFailure("GET ops of \(id): the pages did not end")
    }

    /// `POST /api/boards/{id}/ops` with the operation exactly as a WebSocket client sends it.
    public func perform(_ id: String, _ request: OperationRequest) throws -> APIResponse {
        try post("/api/boards/\(id)/ops", bytes: Array(try WireFormat.encode(ClientMessage.operation(request))))
    }

    /// The `POST /api/boards` body for a board: `{"id","title","collections":[{"id","title","items":[…]}]}`.
    public static func newBoardBody(_ board: Board) -> JSONValue {
        func items(_ items: [Item]) -> JSONValue {
            .array(
                items.map { item in
                    var fields: JSONObject = ["id": .string(item.id), "label": .string(item.label)]
                    if let data = item.data { fields["data"] = .object(data) }
                    if let folder = item.folder { fields["folder"] = .object(["accepts": .bool(folder.accepts)]) }
                    return .object(fields)
                })
        }
        var body: JSONObject = [
            "id": .string(board.id),
            "title": .string(board.title),
            "collections": .array(
                board.collections.map { .object(["id": .string($0.id), "title": .string($0.title), "items": items($0.items)]) }),
        ]
        if !board.folders.isEmpty { body["folders"] = .object(board.folders.mapValues(items)) }
        return .object(body)
    }
}

/// A server with one board created over HTTP, joined over real WebSockets on `/ws`: the
/// `.socket` case of the hub suites that run over both harnesses (`HubHarness`), and the fixture
/// of every server test that joins a board.
public final class HubFixture: HubUnderTest {
    public let server: TestServer
    public let api: BoardAPI
    public let board: Board
    public let created: BoardDocument

    public static let standardBoard = TestBoards.standard

    public static func grid(id: String = "board", collections: Int, itemsEach: Int) -> Board {
        TestBoards.grid(id: id, collections: collections, itemsEach: itemsEach)
    }

    public init(board: Board = HubFixture.standardBoard, configure: (inout ServerConfiguration) -> Void = { _ in }) throws {
        server = try TestServer { configuration in
            configuration.createsDemoBoard = false
            configure(&configuration)
        }
        api = BoardAPI(port: server.port)
        self.board = board
        created = try api.createBoard(board)
    }

    public var port: UInt16 { server.port }

    /// A WebSocket on `/ws` offering the `corkboard.v1` subprotocol, not joined yet.
    public func newConnection(_ name: String) throws -> any TestClientTransport {
        try WebSocketClientTransport(port: port)
    }

    /// Joins with this subprotocol offered in the handshake (nil: none).
    public func join(_ name: String, subprotocol: String?) throws -> BoardTestClient {
        try BoardTestClient(transport: WebSocketClientTransport(port: port, subprotocol: subprotocol), board: board.id, name: name)
    }

    /// The board as the server has it now.
    public func document() throws -> BoardDocument { try api.document(board.id) }
}
