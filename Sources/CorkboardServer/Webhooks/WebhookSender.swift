import Dispatch
import Foundation
import HTTP
import Sockets
import Synchronization
import TLS

/// Sends one signed message by POST (docs/integrations.md#webhooks), on a connection of its own,
/// over TLS for an https URL (the receiver's certificate checked against the system's CA
/// store). Redirects are not followed: a 3xx is a failure like any other non-2xx.
public struct WebhookSender: Sendable {
    let loop: IOLoop
    let tls: TLSContext?
    /// Seconds an attempt may take, connecting included.
    public var timeout: Double

    /// One I/O loop (a thread) for every deliverer of the process, made at its first use: a
    /// server without endpoints starts none.
    static let sharedLoop = IOLoopGroup(count: 1).next()

    init(loop: IOLoop = WebhookSender.sharedLoop, timeout: Double = 10) {
        self.loop = loop
        self.timeout = timeout
        tls = try? TLSContext.client()
    }

    /// Posts `message` to `url`, signed with `secret` at `now`; `completion` gets the status, or
    /// why there was none.
    public func send(
        _ message: WebhookMessage, to url: WebhookURL, secret: WebhookSecret, now: Date = Date(),
        completion: @escaping @Sendable (Result<Int, Error>) -> Void
    ) {
        let timestamp = Int64(now.timeIntervalSince1970.rounded(.down))
        var headers: HTTPHeaders = ["Content-Type": "application/json", "User-Agent": "corkboard/\(CorkboardVersion.current)"]
        for (name, value) in WebhookSignature.headers(secret: secret, id: message.id, timestamp: timestamp, body: message.body) {
            headers.set(name, value)
        }
        var transport: TransportFilterFactory?
        if url.usesTLS {
            guard let tls else { return completion(.failure(HTTPClientCall.Failure.transport("no TLS client context (OpenSSL)"))) }
            let host = url.host
            transport = { try tls.makeClientSession(serverName: host) }
        }
        HTTPClientCall.perform(
            .POST, host: url.host, port: url.port, path: url.target, headers: headers, body: message.body, loop: loop,
            transport: transport, timeout: timeout, maxBodyBytes: 1 << 20
        ) { result in
            completion(result.map(\.status))
        }
    }
}

extension WebhookSender {
    /// Sends one message and waits for the answer: `corkboard webhook test`'s call.
    public static func sendAndWait(_ message: WebhookMessage, to url: WebhookURL, secret: WebhookSecret, timeout: Double) -> Result<Int, Error> {
        let answer = Mutex<Result<Int, Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        WebhookSender(timeout: timeout).send(message, to: url, secret: secret) { result in
            answer.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        return answer.withLock { $0 } ?? .failure(HTTPClientCall.Failure.closedEarly)
    }
}
