import Dispatch
import Sockets

/// A connection over the server's connection limits: whatever request it sends is answered
/// `503 Service Unavailable` with `Retry-After` and the reason, and the connection is closed.
/// For a WebSocket client that is the answer to its handshake.
///
/// The answer goes out once the request has been read (closing with unread input would reset
/// the connection and could destroy the answer before the client read it), or after a short
/// wait for a client that sends nothing. Confinement: everything runs on the connection's loop.
final class HTTPRefusalConnection: ConnectionHandler, @unchecked Sendable {
    /// How long a refused connection may stay before it is closed, answered or not.
    static let wait = DispatchTimeInterval.seconds(2)

    private let response: ByteChunk
    private let timer: DispatchSourceTimer
    private var answered = false

    init(connection: Connection, refusal: AdmissionRefusal) {
        var response = HTTPResponse.error(.serviceUnavailable, refusal.description)
        response.headers.set("Retry-After", "5")
        self.response = response.serialized(keepAlive: false)
        timer = DispatchSource.makeTimerSource(queue: connection.loop.queue)
        timer.setEventHandler { [weak self, weak connection] in
            guard let self, let connection else { return }
            self.answer(connection)
        }
        timer.schedule(deadline: .now() + Self.wait)
        timer.resume()
    }

    func connection(_ connection: Connection, didRead bytes: UnsafeRawBufferPointer) {
        answer(connection)
    }

    func connectionDidReadEOF(_ connection: Connection) { answer(connection) }

    func connectionDidClose(_ connection: Connection, reason: Connection.CloseReason) {
        timer.cancel()
    }

    private func answer(_ connection: Connection) {
        guard !answered else { return }
        answered = true
        connection.send(response)
        connection.close()
    }
}
