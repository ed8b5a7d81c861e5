import Dispatch
import Foundation
import HTTP
import Sockets

/// Opens WebSocket connections as a client: TCP connect, the opening handshake, then a
/// `WebSocketConnection` in the client role (masked frames out, pings answered).
public enum WebSocketClient {
    public enum Failure: Error, CustomStringConvertible {
        case refused(status: Int, body: String)
        case badAccept
        case closedDuringHandshake
        case badExtension(String)
        /// TLS failed: the server's certificate is not trusted, or no version or protocol in common.
        case transport(String)

        public var description: String {
            switch self {
            case .refused(let status, let body): return "handshake refused with HTTP \(status): \(body)"
            case .badAccept: return "the server's Sec-WebSocket-Accept does not match our key"
            case .closedDuringHandshake: return "the server closed the connection during the handshake"
            case .badExtension(let detail): return "the server's extension response is unusable: \(detail)"
            case .transport(let detail): return detail
            }
        }
    }

    /// Connects to `ws://host:port/path`, or `wss://` when `transport` makes TLS sessions (the
    /// handshake request waits in the connection until TLS is established). `completion` runs
    /// once on the connection's loop; on success the handler has already been told `webSocketDidOpen`.
    public static func connect(
        host: String, port: UInt16, path: String = "/", subprotocols: [String] = [],
        headers extraHeaders: HTTPHeaders = [:], options: WebSocketOptions = .init(), loop: IOLoop,
        transport: TransportFilterFactory? = nil, handler: WebSocketHandler,
        completion: @escaping @Sendable (Result<WebSocketConnection, Error>) -> Void
    ) {
        let box = HandlerBox(handler)
        Connector.connect(host: host, port: port, loop: loop, timeout: options.closeTimeout, transport: transport) { result in
            switch result {
            case .failure(let error):
                completion(.failure(error))
            case .success(let connection):
                let key = Data((0..<16).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()
                var request =
                    "GET \(path) HTTP/1.1\r\nHost: \(host.contains(":") ? "[\(host)]" : host):\(port)\r\n"
                    + "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: \(key)\r\nSec-WebSocket-Version: 13\r\n"
                if !subprotocols.isEmpty { request += "Sec-WebSocket-Protocol: \(subprotocols.joined(separator: ", "))\r\n" }
                if let negotiator = options.extensions { request += "Sec-WebSocket-Extensions: \(negotiator.offerHeader)\r\n" }
                for (name, value) in extraHeaders { request += "\(name): \(value)\r\n" }
                let handshake = ClientHandshake(
                    expectedAccept: WebSocketHandshake.acceptValue(for: key), options: options,
                    handler: box.value, completion: completion)
                connection.start(handler: handshake)
                connection.send(ByteChunk(request + "\r\n"))
            }
        }
    }
}

/// Reads the server's handshake response, then hands the connection to a `WebSocketConnection`.
/// Confinement: runs on the connection's loop.
private final class ClientHandshake: ConnectionHandler, @unchecked Sendable {
    let expectedAccept: String
    let options: WebSocketOptions
    var handler: WebSocketHandler?
    var completion: (@Sendable (Result<WebSocketConnection, Error>) -> Void)?
    var received: [UInt8] = []

    init(
        expectedAccept: String, options: WebSocketOptions, handler: WebSocketHandler,
        completion: @escaping @Sendable (Result<WebSocketConnection, Error>) -> Void
    ) {
        self.expectedAccept = expectedAccept
        self.options = options
        self.handler = handler
        self.completion = completion
    }

    func connection(_ connection: Connection, didRead bytes: UnsafeRawBufferPointer) {
        received += bytes
        do {
            guard let (head, used) = try HTTPResponseHead.parse(received) else { return }
            guard head.status == 101 else {
                throw WebSocketClient.Failure.refused(status: head.status, body: String(decoding: received[used...], as: UTF8.self))
            }
            guard head.headers["Sec-WebSocket-Accept"] == expectedAccept else { throw WebSocketClient.Failure.badAccept }
            guard let handler else { return }
            let socket = WebSocketConnection(
                connection: connection, role: .client, subprotocol: head.headers["Sec-WebSocket-Protocol"],
                options: options, compression: try compression(from: head), handler: handler)
            connection.replaceHandler(socket)
            self.handler = nil
            finish(.success(socket))
            socket.open()
            let rest = Array(received[used...])
            if !rest.isEmpty { rest.withUnsafeBytes { socket.connection(connection, didRead: $0) } }
        } catch {
            finish(.failure(error))
            connection.abort()
        }
    }

    func connectionDidClose(_ connection: Connection, reason: Connection.CloseReason) {
        if case .transportFailed(let failure) = reason {
            finish(.failure(WebSocketClient.Failure.transport(failure.description)))
        } else {
            finish(.failure(WebSocketClient.Failure.closedDuringHandshake))
        }
    }

    /// The compression the server accepted; an extension we did not offer fails the handshake.
    private func compression(from head: HTTPResponseHead) throws -> WebSocketMessageCompression? {
        let accepted = WebSocketExtensionOffer.parse(head.headers.values("Sec-WebSocket-Extensions"))
        guard !accepted.isEmpty else { return nil }
        guard let negotiator = options.extensions else {
            throw WebSocketClient.Failure.badExtension("extensions accepted that were never offered")
        }
        do {
            return try negotiator.confirm(response: accepted)
        } catch {
            throw WebSocketClient.Failure.badExtension("\(error)")
        }
    }

    private func finish(_ result: Result<WebSocketConnection, Error>) {
        let completion = self.completion
        self.completion = nil
        completion?(result)
    }
}

/// Carries the (loop-confined) handler to the loop that will own it.
private struct HandlerBox: @unchecked Sendable {
    let value: WebSocketHandler
    init(_ value: WebSocketHandler) { self.value = value }
}
