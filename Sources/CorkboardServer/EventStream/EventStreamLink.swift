import CoreMetrics
import CorkboardHub
import CorkboardWire
import Dispatch
import HTTP
import Sockets
import Synchronization

/// One event stream (`GET /api/boards/{id}/events`, docs/protocol.md#event-stream): the hub's
/// link to an observer of the board (`HubSession.follow`), writing what the board commits as
/// server-sent events on an HTTP response that lasts as long as the reader wants it.
///
/// Until the hub welcomes it, the request is unanswered: a refusal (no such board, a token
/// revoked meanwhile) is an ordinary HTTP error. The welcome sends the stream's head and takes
/// the connection over (`HTTPResponder.upgrade`); what the hub sends meanwhile waits here,
/// bounded by the output bound as the connection would bound it. From then on the connection
/// bounds it: a reader that does not keep up is dropped like a slow WebSocket member.
///
/// Confinement: `state` is behind its mutex (the hub calls from the board's queue, the
/// connection from its loop); `session` is touched only on `sessionQueue`; `connection`,
/// `drainWaiters` and `counted` only on the connection's loop. Hence `@unchecked Sendable`.
final class EventStreamLink: MemberLink, ConnectionHandler, LoopTickable, @unchecked Sendable {
    private enum State {
        case awaitingWelcome
        /// Welcomed: the head is on its way; the connection is being taken over.
        case opening(Opening)
        case streaming(Connection)
        case ended
    }

    /// What waits for the connection while the stream opens.
    private struct Opening {
        var frames: [[UInt8]]
        var bytes: Int
        var drainWaiters: [@Sendable () -> Void] = []
        /// The hub ended the membership meanwhile: the stream ends once what waits is written.
        var closing = false
    }

    private let state = Mutex<State>(.awaitingWelcome)
    private let responder: HTTPResponder
    /// A `HEAD`: answered with the stream's head once the hub admits it, then let go.
    private let headOnly: Bool
    private let settings: EventStreamSettings
    let outputBound: Int
    private let openStreams: Meter?
    private let sessionQueue = DispatchQueue(label: "corkboard.event-stream")
    private var session: HubSession?
    private var connection: Connection?
    private var drainWaiters: [@Sendable () -> Void] = []
    /// Counted in `openStreams` (from the takeover to the close).
    private var counted = false

    /// `text/event-stream`, never stored or transformed on the way (`X-Accel-Buffering: no`
    /// asks nginx not to buffer it), in chunks.
    static let head = HTTPResponse(
        status: .ok,
        headers: [
            "Content-Type": "text/event-stream", "Cache-Control": "no-store, no-transform", "X-Accel-Buffering": "no",
            "Transfer-Encoding": "chunked",
        ])

    init(responder: HTTPResponder, headOnly: Bool, settings: EventStreamSettings, outputBound: Int, openStreams: Meter?) {
        self.responder = responder
        self.headOnly = headOnly
        self.settings = settings
        self.outputBound = outputBound
        self.openStreams = openStreams
    }

    /// Joins the board as an observer (see `HubSession.follow`).
    func start(hub: Hub, board: String, token: String?, query: EventStreamQuery) {
        sessionQueue.async {
            // Not counted per address: an event stream is an HTTP request, under the HTTP limits.
            let session = hub.makeSession(link: self, address: nil)
            self.session = session
            session.follow(board: board, token: token, after: query.since, epoch: query.epoch)
        }
    }

    // MARK: MemberLink

    func send(text: String) {
        deliver(EventStreamMessage(text: text))
    }

    /// Translated once for every stream it goes to.
    static func broadcast(text: String, to links: [any MemberLink]) {
        let message = EventStreamMessage(text: text)
        if case .ignored = message { return }
        // The hub hands a type its own links only.
        for link in links { unsafeDowncast(link, to: EventStreamLink.self).deliver(message) }
    }

    func whenDrained(_ work: @escaping @Sendable () -> Void) {
        state.withLock { state in
            switch state {
            case .opening(var opening):
                opening.drainWaiters.append(work)
                state = .opening(opening)
            case .streaming(let connection):
                connection.loop.execute { self.whenDrained(connection, work) }
            case .awaitingWelcome, .ended:
                break
            }
        }
    }

    /// The hub ended the membership (after an `error`, or to have the reader reconnect):
    /// the stream ends with its last chunk once what waits is written.
    func close(_ code: MemberClose, reason: String) {
        var unanswered = false
        let streaming: Connection? = state.withLock { state in
            switch state {
            case .opening(var opening):
                opening.closing = true
                state = .opening(opening)
                return nil
            case .streaming(let connection):
                state = .ended
                return connection
            case .awaitingWelcome:
                // The hub refuses with an `error` first, answered already; a close without one
                // still gets an answer, and the session is let go.
                unanswered = true
                state = .ended
                return nil
            case .ended:
                return nil
            }
        }
        if unanswered {
            responder.respond(.error(.serviceUnavailable, reason.isEmpty ? "the board could not be followed; try again" : reason))
            leave()
        }
        streaming?.loop.execute { self.end(streaming!) }
    }

    func schedule(after delay: DispatchTimeInterval, _ work: @escaping @Sendable () -> Void) {
        sessionQueue.asyncAfter(deadline: .now() + delay, execute: work)
    }

    private func deliver(_ message: EventStreamMessage) {
        switch message {
        case .ignored:
            break
        case .welcome(let reset):
            welcomed(reset: reset)
        case .event(let frame):
            write(frame)
        case .refusal(let error, let frame):
            if !refusedBeforeWelcome(error) { write(frame) }
        }
    }

    // MARK: Opening

    private func welcomed(reset: [UInt8]?) {
        let advice = EventStreamFrame.retry(milliseconds: settings.retryMilliseconds)
        let frames = [advice] + (reset.map { [$0] } ?? [])
        let admitted = state.withLock { state in
            guard case .awaitingWelcome = state else { return false }
            state = headOnly ? .ended : .opening(Opening(frames: frames, bytes: frames.reduce(0) { $0 + $1.count }))
            return true
        }
        guard admitted else { return }
        guard !headOnly else {
            responder.respond(Self.head)
            return leave()
        }
        responder.upgrade(Self.head, to: { connection in self.attach(connection) }, ifGone: { self.abandon() })
    }

    /// The head is sent: the connection is this stream's from now on. On its loop.
    private func attach(_ connection: Connection) -> ConnectionHandler {
        let opening: Opening? = state.withLock { state in
            guard case .opening(let opening) = state else { return nil }
            state = opening.closing ? .ended : .streaming(connection)
            return opening
        }
        self.connection = connection
        counted = true
        openStreams?.increment()
        guard let opening else {
            // The reader fell behind before the stream opened: dropped as a slow consumer.
            connection.dropSlowConsumer()
            return self
        }
        for frame in opening.frames { connection.sendOnLoop(ByteChunk(frame)) }
        if opening.closing { return endingOnLoop(connection) }
        connection.loop.startTicking(self, every: settings.heartbeat)
        for work in opening.drainWaiters { whenDrained(connection, work) }
        return self
    }

    /// Ends the stream when the handler is being installed (`end` would run before it is).
    private func endingOnLoop(_ connection: Connection) -> ConnectionHandler {
        connection.sendOnLoop(ByteChunk(EventStreamFrame.end))
        connection.close()
        return self
    }

    /// Refused before it was welcomed: an ordinary error answer, with the status of the HTTP API.
    private func refusedBeforeWelcome(_ error: ErrorMessage) -> Bool {
        let waiting = state.withLock { state in
            guard case .awaitingWelcome = state else { return false }
            state = .ended
            return true
        }
        guard waiting else { return false }
        responder.respond(.error(Self.status(of: error.code), error.message))
        leave()
        return true
    }

    /// The status of a refused join: the status the other routes give the same refusal.
    static func status(of code: ErrorCode) -> HTTPStatus {
        switch code {
        case .notFound, .gone: .notFound
        case .unauthorized: .unauthorized
        case .forbidden: .forbidden
        case .invalid: .badRequest
        case ErrorCode(rawValue: "unavailable"): .serviceUnavailable
        default: .internalServerError
        }
    }

    /// The client left before the stream could open.
    private func abandon() {
        state.withLock { $0 = .ended }
        leave()
    }

    // MARK: Writing

    /// The hub calls from the board's queue only, so writes stay in order outside the lock.
    private func write(_ frame: [UInt8]) {
        let (streaming, overflowed): (Connection?, Bool) = state.withLock { state in
            switch state {
            case .opening(var opening):
                opening.frames.append(frame)
                opening.bytes += frame.count
                guard opening.bytes <= outputBound else {
                    state = .ended
                    return (nil, true)
                }
                state = .opening(opening)
                return (nil, false)
            case .streaming(let connection):
                return (connection, false)
            case .awaitingWelcome, .ended:
                return (nil, false)
            }
        }
        // Past the output bound the connection drops the reader (`.outputOverflow`).
        streaming?.send(ByteChunk(frame))
        if overflowed { leave() }
    }

    private func whenDrained(_ connection: Connection, _ work: @escaping @Sendable () -> Void) {
        if connection.pendingOutputBytes == 0 { work() } else { drainWaiters.append(work) }
    }

    private func end(_ connection: Connection) {
        connection.sendOnLoop(ByteChunk(EventStreamFrame.end))
        connection.close()
    }

    /// Leaves the board: the hub sends nothing more.
    private func leave() {
        sessionQueue.async {
            self.session?.linkClosed()
            self.session = nil
        }
    }

    // MARK: ConnectionHandler

    func connection(_ connection: Connection, didRead bytes: UnsafeRawBufferPointer) {
        // A reader has nothing to say on a stream; what it sends is read and dropped.
    }

    func connectionDidDrain(_ connection: Connection) {
        let waiting = drainWaiters
        drainWaiters = []
        for work in waiting { work() }
    }

    /// A graceful shutdown ends every stream with its last chunk: the reader sees an end, not a
    /// broken connection, and reconnects (to another node) with `Last-Event-ID`.
    func connectionShouldShutDown(_ connection: Connection) {
        let streaming = state.withLock { state in
            guard case .streaming = state else { return false }
            state = .ended
            return true
        }
        if streaming { end(connection) } else { connection.close() }
    }

    func connectionDidClose(_ connection: Connection, reason: Connection.CloseReason) {
        connection.loop.stopTicking(self)
        state.withLock { $0 = .ended }
        drainWaiters = []
        self.connection = nil
        if counted {
            counted = false
            openStreams?.decrement()
        }
        leave()
    }

    // MARK: LoopTickable

    func loopDidTick(now: DispatchTime) {
        guard let connection, case .streaming = state.withLock({ $0 }) else { return }
        connection.sendOnLoop(ByteChunk(EventStreamFrame.comment("ping")))
    }
}
