import ArgumentParser
import CorkboardClient
import CorkboardWire
import Dispatch
import Foundation
import HTTP
import Sockets
import Synchronization
import TLS

/// The options of the commands that administer a running server over its HTTP API.
struct AdminServerOptions: ParsableArguments {
    @Option(
        help:
            "The server: http://HOST:PORT or https://HOST[:PORT] (ws:// and wss:// name the same server; env: CORKBOARD_URL; default http://127.0.0.1:8080)."
    )
    var url: String?

    @Option(help: "With https://: also trust the CA certificates of this PEM file (env: CORKBOARD_CA_FILE).")
    var caFile: String?

    @Option(help: "An owner's token, where the server has tokens (env: CORKBOARD_TOKEN).")
    var token: String?

    @Option(help: "Seconds to wait for each answer.")
    var timeout = 10.0

    func validate() throws {
        guard timeout > 0 else { throw ValidationError("--timeout must be a number of seconds above 0") }
        _ = try address()
    }

    /// The server's address; an http(s) URL is read as the ws(s) URL of the same server.
    func address() throws -> ServerAddress {
        let environment = ProcessInfo.processInfo.environment
        let text = url ?? environment["CORKBOARD_URL"] ?? "http://127.0.0.1:8080"
        let webSocketForm =
            text.hasPrefix("http://") ? "ws://" + text.dropFirst(7) : text.hasPrefix("https://") ? "wss://" + text.dropFirst(8) : text
        do {
            return try ServerAddress(url: webSocketForm)
        } catch {
            throw ValidationError(error.description.replacingOccurrences(of: "ws:// or wss://", with: "http:// or https://"))
        }
    }

    func api() throws -> AdminAPI {
        let environment = ProcessInfo.processInfo.environment
        let address = try address()
        var transport: TransportFilterFactory?
        if address.usesTLS {
            let context: TLSContext
            do {
                context = try TLSContext.client(trustedCAFile: caFile ?? environment["CORKBOARD_CA_FILE"])
            } catch {
                fail(CommandFailure(error.description))
            }
            let host = address.host
            transport = { try context.makeClientSession(serverName: host) }
        }
        return AdminAPI(address: address, token: token ?? environment["CORKBOARD_TOKEN"], transport: transport, timeout: timeout)
    }
}

/// Blocking calls of the HTTP API for one-shot commands: each answer other than 2xx becomes
/// one `CommandFailure` line, the server's own message in it.
struct AdminAPI {
    let address: ServerAddress
    let token: String?
    let transport: TransportFilterFactory?
    let timeout: Double

    private static let loop = IOLoopGroup(count: 1).next()

    /// The body of a 2xx answer. A 404 fails with `notFound` when given, else the server's message.
    func call(_ method: HTTPMethod, _ path: String, notFound: String? = nil) throws -> [UInt8] {
        let response = try exchange(method, path)
        if response.status == 404, let notFound { throw CommandFailure(notFound) }
        return try body(of: response)
    }

    /// As `call`, but nil for a 404: a board deleted between a listing and reading it.
    func callUnlessMissing(_ method: HTTPMethod, _ path: String) throws -> [UInt8]? {
        let response = try exchange(method, path)
        return response.status == 404 ? nil : try body(of: response)
    }

    /// One request, waited for; any answer at all is a response.
    private func exchange(_ method: HTTPMethod, _ path: String) throws -> HTTPClientCall.Response {
        var headers = HTTPHeaders()
        if let token { headers.set("Authorization", "Bearer \(token)") }
        let answer = Mutex<Result<HTTPClientCall.Response, Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        HTTPClientCall.perform(
            method, host: address.host, port: address.port, path: path, headers: headers, loop: Self.loop, transport: transport,
            timeout: timeout
        ) { result in
            answer.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        do {
            return try answer.withLock({ $0 })!.get()
        } catch {
            throw CommandFailure("cannot reach \(server): \(error)")
        }
    }

    /// The body of a 2xx answer; any other fails with the server's message.
    private func body(of response: HTTPClientCall.Response) throws -> [UInt8] {
        guard !(200..<300).contains(response.status) else { return response.body }
        // The API's error body names the reason; anything else is shown as sent.
        let message =
            (try? JSONDecoder().decode(APIError.self, from: Data(response.body)).message)
            ?? String(decoding: response.body.prefix(200), as: UTF8.self)
        throw CommandFailure("\(server) answered \(response.status): \(message)")
    }

    /// `http://host:port` as the messages name it.
    private var server: String { "\(address.usesTLS ? "https" : "http")://\(address.host):\(address.port)" }

    func decode<T: Decodable>(_ type: T.Type, from body: [UInt8]) throws -> T {
        do {
            return try JSONDecoder().decode(type, from: Data(body))
        } catch {
            throw CommandFailure("the server's answer is not what this command expects: \(error)")
        }
    }

    /// A board id as one path segment: everything but unreserved characters percent-encoded
    /// (an id may hold `/`, `?`, spaces).
    static func pathSegment(_ id: String) -> String {
        let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        return id.addingPercentEncoding(withAllowedCharacters: unreserved) ?? id
    }

    /// `{"error","message"}` (docs/protocol.md#8-http-api).
    private struct APIError: Decodable {
        var message: String
    }
}
