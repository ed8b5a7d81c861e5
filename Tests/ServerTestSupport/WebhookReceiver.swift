import Foundation
import HTTP
import HubTestSupport
import Logging
import Sockets

/// A webhook receiver for the tests: the project's own HTTP server on 127.0.0.1, which records
/// every POST it gets (headers and raw body) and answers 204, or the status it is told to fail
/// with. It can be stopped (connections are then refused) and started again on its port.
public final class WebhookReceiver: Sendable {
    public struct Received: Sendable {
        public var headers: HTTPHeaders
        public var body: [UInt8]
        public var answered: Int

        public var id: String { headers["webhook-id"] ?? "" }
        public var json: [String: Any]? { try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] }
        public var type: String? { json?["type"] as? String }
        public var data: [String: Any]? { json?["data"] as? [String: Any] }
    }

    private let received: Locked<[Received]>
    /// Nil: answer 204.
    private let failing: Locked<Int?>
    private let server: Locked<HTTPServer?>
    public let port: UInt16

    public init() throws {
        let (received, failing) = (Locked<[Received]>([]), Locked<Int?>(nil))
        let (server, port) = try Self.serve(port: 0, received, failing)
        self.received = received
        self.failing = failing
        self.server = Locked(server)
        self.port = port
    }

    deinit { stop() }

    /// Every request so far, in arrival order.
    public var requests: [Received] { received.withLock { $0 } }

    /// Answer `status` from now on (nil: 204 again).
    public func fail(with status: Int?) { failing.withLock { $0 = status } }

    /// Listens again on its port.
    public func start() throws {
        let (server, _) = try Self.serve(port: port, received, failing)
        self.server.withLock { $0 = server }
    }

    private static func serve(port: UInt16, _ received: Locked<[Received]>, _ failing: Locked<Int?>) throws -> (HTTPServer, UInt16) {
        var router = Router()
        router.add(.POST, "/hook") { request, responder in
            let status = failing.withLock { $0 } ?? 204
            received.withLock { $0.append(Received(headers: request.headers, body: request.body, answered: status)) }
            responder.respond(status == 204 ? HTTPResponse(status: .noContent) : .error(HTTPStatus(status, "Failing"), "told to fail"))
        }
        var logger = Logger(label: "webhook-receiver")
        logger.logLevel = .critical
        let server = HTTPServer(router: router, loops: IOLoopGroup(count: 1), logger: logger)
        let address = try server.start(host: "127.0.0.1", port: port)
        return (server, address.port)
    }

    /// Stops listening: deliveries find the port closed until `start()`.
    public func stop() {
        guard
            let server = server.withLock({
                let running = $0
                $0 = nil
                return running
            })
        else { return } // stopped already: a second stop does nothing
        let done = DispatchSemaphore(value: 0)
        server.shutdown(grace: .seconds(1)) { done.signal() }
        done.wait()
    }

    /// The captured deliveries as the verification snippets read them: one JSON object a line,
    /// `{"headers": {...}, "body": "..."}`.
    public func capturedLines() throws -> String {
        try requests.map { request in
            var headers: [String: String] = [:]
            for name in ["webhook-id", "webhook-timestamp", "webhook-signature"] { headers[name] = request.headers[name] }
            let line: [String: Any] = ["headers": headers, "body": String(decoding: request.body, as: UTF8.self)]
            return String(decoding: try JSONSerialization.data(withJSONObject: line), as: UTF8.self)
        }.joined(separator: "\n") + "\n"
    }
}
