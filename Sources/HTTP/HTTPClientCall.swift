import Dispatch
import Sockets

/// One HTTP/1.1 request as a client, on a connection of its own (`Connection: close`): what
/// an admin command needs to talk to a running server's API, over TLS too when `transport`
/// makes client sessions. The response body is read by its `Content-Length`, else to the end
/// of the connection; one over `maxBodyBytes` fails the call.
public enum HTTPClientCall {
    public struct Response: Sendable {
        public var status: Int
        public var headers: HTTPHeaders
        public var body: [UInt8]
    }

    public enum Failure: Error, CustomStringConvertible {
        case closedEarly
        case tooLarge(Int)
        case malformed(String)
        case transport(String)
        case timedOut(Double)

        public var description: String {
            switch self {
            case .closedEarly: "the server closed the connection before the response was complete"
            case .tooLarge(let limit): "the response is larger than \(limit) bytes"
            case .malformed(let detail): "the response is not HTTP/1.1: \(detail)"
            case .transport(let detail): detail
            case .timedOut(let seconds): "no complete response within \(seconds) s"
            }
        }
    }

    /// `completion` runs once, on `loop`.
    public static func perform(
        _ method: HTTPMethod, host: String, port: UInt16, path: String, headers: HTTPHeaders = [:], body: [UInt8] = [],
        loop: IOLoop, transport: TransportFilterFactory? = nil, timeout seconds: Double = 10, maxBodyBytes: Int = 256 << 20,
        completion: @escaping @Sendable (Result<Response, Error>) -> Void
    ) {
        Connector.connect(host: host, port: port, loop: loop, timeout: .milliseconds(Int(seconds * 1000)), transport: transport) {
            result in
            switch result {
            case .failure(let error):
                completion(.failure(error))
            case .success(let connection):
                var request = "\(method) \(path) HTTP/1.1\r\nHost: \(host.contains(":") ? "[\(host)]" : host):\(port)\r\n"
                request += "Connection: close\r\nContent-Length: \(body.count)\r\n"
                for (name, value) in headers { request += "\(name): \(value)\r\n" }
                let reader = ResponseReader(maxBodyBytes: maxBodyBytes, completion: completion)
                connection.start(handler: reader)
                connection.send(ByteChunk(request + "\r\n"))
                if !body.isEmpty { connection.send(body) }
                loop.queue.asyncAfter(deadline: .now() + seconds) {
                    if reader.finish(.failure(Failure.timedOut(seconds))) { connection.abort() }
                }
            }
        }
    }
}

/// Collects one response. Confinement: runs on the connection's loop (the timeout is queued
/// there too), which makes `@unchecked Sendable` true.
private final class ResponseReader: ConnectionHandler, @unchecked Sendable {
    let maxBodyBytes: Int
    var completion: (@Sendable (Result<HTTPClientCall.Response, Error>) -> Void)?
    var received: [UInt8] = []
    var head: (HTTPResponseHead, Int)?

    init(maxBodyBytes: Int, completion: @escaping @Sendable (Result<HTTPClientCall.Response, Error>) -> Void) {
        self.maxBodyBytes = maxBodyBytes
        self.completion = completion
    }

    func connection(_ connection: Connection, didRead bytes: UnsafeRawBufferPointer) {
        received += bytes
        do {
            if head == nil { head = try HTTPResponseHead.parse(received) }
            guard let (parsed, used) = head else { return }
            guard received.count - used <= maxBodyBytes else { throw HTTPClientCall.Failure.tooLarge(maxBodyBytes) }
            // Without a length the body ends with the connection (`connectionDidReadEOF`).
            guard let lengthText = parsed.headers["Content-Length"] else { return }
            guard let length = Int(lengthText), length >= 0 else { throw HTTPClientCall.Failure.malformed("Content-Length \(lengthText)") }
            guard length <= maxBodyBytes else { throw HTTPClientCall.Failure.tooLarge(maxBodyBytes) }
            if received.count - used >= length {
                _ = finish(.success(.init(status: parsed.status, headers: parsed.headers, body: Array(received[used..<used + length]))))
                connection.close()
            }
        } catch {
            _ = finish(.failure(error as? HTTPClientCall.Failure ?? .malformed("\(error)")))
            connection.abort()
        }
    }

    func connectionDidReadEOF(_ connection: Connection) {
        if let (parsed, used) = head, parsed.headers["Content-Length"] == nil {
            _ = finish(.success(.init(status: parsed.status, headers: parsed.headers, body: Array(received[used...]))))
        }
        connection.close()
    }

    func connectionDidClose(_ connection: Connection, reason: Connection.CloseReason) {
        if case .transportFailed(let failure) = reason {
            _ = finish(.failure(HTTPClientCall.Failure.transport(failure.description)))
        } else {
            _ = finish(.failure(HTTPClientCall.Failure.closedEarly))
        }
    }

    /// Answers once; true when this call was the one that answered.
    func finish(_ result: Result<HTTPClientCall.Response, Error>) -> Bool {
        guard let completion else { return false }
        self.completion = nil
        completion(result)
        return true
    }
}
