import CorkboardModel
import CorkboardWire
import Dispatch
import Foundation
import HTTP
import Sockets
import Synchronization
import TLS

/// Administers a running server's boards over its HTTP API (docs/protocol.md#8-http-api),
/// as `corkboard boards` does: list them, read one, delete one. Each call is one request on a
/// connection of its own (`HTTPClientCall`), and waits for its answer.
///
/// Every failure is a ``BoardAdministrationError``, whose description is the one line the
/// command prints: an answer other than 2xx carries the server's own message.
///
/// ```swift
/// let admin = try BoardAdministration(address: ServerAddress(host: "127.0.0.1", port: 8080), token: "owner-token")
/// print(ListedBoard.table(try admin.listedBoards()))
/// try admin.deleteBoard("sprint")
/// ```
///
/// Blocking: each call holds its thread until the answer or `timeout`, so call it from a
/// thread that may wait (a command's main thread), not from Swift's cooperative pool.
public struct BoardAdministration: Sendable {
    /// The server. Only its host, port and `usesTLS` matter; the path is the API's own.
    public let address: ServerAddress
    /// Sent as `Authorization: Bearer …`: an owner's token, where the server has tokens.
    public let token: String?
    /// Seconds to wait for each answer (connecting included).
    public let timeout: Double
    private let transport: TransportFilterFactory?

    /// The calls of every administration in the process share one I/O loop; they wait on it.
    private static let loop = IOLoopGroup(count: 1).next()

    /// With `usesTLS`, the server's certificate is verified against the system's CA store and
    /// `trustedCAFile` (PEM); a CA file that cannot be used fails here, with OpenSSL's reason.
    public init(address: ServerAddress, token: String? = nil, trustedCAFile: String? = nil, timeout: Double = 10)
        throws(BoardAdministrationError)
    {
        self.address = address
        self.token = token
        self.timeout = timeout
        guard address.usesTLS else {
            transport = nil
            return
        }
        let context: TLSContext
        do {
            context = try TLSContext.client(trustedCAFile: trustedCAFile)
        } catch {
            throw .unusableTrust(error.description)
        }
        let host = address.host
        transport = { try context.makeClientSession(serverName: host) }
    }

    /// `GET /api/boards`: every board the token may see, in the server's order (by id), page
    /// after page (docs/protocol.md#conventions) until a page has no `next`. The cursor is
    /// base64url, which a query carries as it is.
    public func listBoards() throws(BoardAdministrationError) -> [BoardSummary] {
        var boards: [BoardSummary] = []
        var cursor: String?
        repeat {
            let target = "/api/boards?limit=1000" + (cursor.map { "&cursor=" + $0 } ?? "")
            let page = try decode(BoardList.self, from: body(of: exchange(.GET, target)))
            boards += page.boards
            cursor = page.next
        } while cursor != nil
        return boards
    }

    /// `GET /api/boards/{id}`: the board with its seq and epoch; nil when the server has no
    /// such board.
    public func board(_ id: String) throws(BoardAdministrationError) -> BoardDocument? {
        let response = try exchange(.GET, "/api/boards/" + Self.pathSegment(id))
        guard response.status != 404 else { return nil }
        return try decode(BoardDocument.self, from: body(of: response))
    }

    /// `DELETE /api/boards/{id}`: the board and everything kept for it; its members are sent
    /// `error gone`, on every node. An unknown board fails with `noSuchBoard`.
    public func deleteBoard(_ id: String) throws(BoardAdministrationError) {
        let response = try exchange(.DELETE, "/api/boards/" + Self.pathSegment(id))
        guard response.status != 404 else { throw .noSuchBoard(id) }
        _ = try body(of: response)
    }

    /// What `boards list` prints: the list, then each board read for its items, one request
    /// at a time, in the server's order. A board deleted between the listing and its reading
    /// is left out, not an error.
    public func listedBoards() throws(BoardAdministrationError) -> [ListedBoard] {
        var rows: [ListedBoard] = []
        for summary in try listBoards() {
            guard let document = try board(summary.id) else { continue }
            let items = document.board.collections.reduce(0) { $0 + $1.items.count }
            rows.append(ListedBoard(id: summary.id, title: document.board.title, seq: document.seq, items: items))
        }
        return rows
    }

    /// A board id as one path segment: everything but unreserved characters percent-encoded
    /// (an id may hold `/`, `?`, `%`, spaces).
    public static func pathSegment(_ id: String) -> String {
        let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        return id.addingPercentEncoding(withAllowedCharacters: unreserved) ?? id
    }

    /// `http://host:port` as the messages name it.
    var server: String {
        // An IPv6 address is bracketed in a URL, or its colons run into the port's.
        let host = address.host.contains(":") ? "[\(address.host)]" : address.host
        return "\(address.usesTLS ? "https" : "http")://\(host):\(address.port)"
    }

    /// One request, waited for; any answer at all is a response.
    func exchange(_ method: HTTPMethod, _ path: String, body: [UInt8] = []) throws(BoardAdministrationError) -> HTTPClientCall.Response {
        var headers = HTTPHeaders()
        if let token { headers.set("Authorization", "Bearer \(token)") }
        if !body.isEmpty { headers.set("Content-Type", "application/json") }
        let answer = Mutex<Result<HTTPClientCall.Response, Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        HTTPClientCall.perform(
            method, host: address.host, port: address.port, path: path, headers: headers, body: body, loop: Self.loop, transport: transport,
            timeout: timeout
        ) { result in
            answer.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        switch answer.withLock({ $0 })! {
        case .success(let response): return response
        case .failure(let error): throw .cannotReach(server: server, reason: "\(error)")
        }
    }

    /// The body of a 2xx answer; any other fails with the server's message.
    func body(of response: HTTPClientCall.Response) throws(BoardAdministrationError) -> [UInt8] {
        guard !(200..<300).contains(response.status) else { return response.body }
        // The API's error body names the reason; anything else is shown as sent.
        let message =
            (try? JSONDecoder().decode(APIError.self, from: Data(response.body)).message)
            ?? String(decoding: response.body.prefix(200), as: UTF8.self)
        throw .refused(server: server, status: response.status, message: message)
    }

    func decode<T: Decodable>(_ type: T.Type, from body: [UInt8]) throws(BoardAdministrationError) -> T {
        do {
            return try JSONDecoder().decode(type, from: Data(body))
        } catch {
            throw .unexpectedAnswer("\(error)")
        }
    }

    /// `{"error","message"}` (docs/protocol.md#8-http-api).
    private struct APIError: Decodable {
        var message: String
    }
}

/// Why a ``BoardAdministration`` call failed. Its description is one line (control characters
/// written escaped), what `corkboard boards` prints after `corkboard: error: `.
public enum BoardAdministrationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No answer: nobody listening, a TLS verdict, a timeout, a broken response.
    case cannotReach(server: String, reason: String)
    /// An answer other than 2xx, with the server's message (its error body's `message`, else
    /// the start of the body as sent).
    case refused(server: String, status: Int, message: String)
    /// `deleteBoard` of a board the server does not have.
    case noSuchBoard(String)
    /// A 2xx answer whose body is not what the call reads.
    case unexpectedAnswer(String)
    /// The TLS client context could not be made (a CA file that is not PEM), OpenSSL's reason.
    case unusableTrust(String)

    public var description: String {
        let line =
            switch self {
            case .cannotReach(let server, let reason): "cannot reach \(server): \(reason)"
            case .refused(let server, let status, let message): "\(server) answered \(status): \(message)"
            case .noSuchBoard(let id): "there is no board \(String(reflecting: id))"
            case .unexpectedAnswer(let problem): "the server's answer is not what this command expects: \(problem)"
            case .unusableTrust(let problem): problem
            }
        return line.escapingControlCharacters
    }
}
