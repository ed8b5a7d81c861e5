import Dispatch
import Logging
import Sockets

/// HTTP/1.1 on one connection: the shell that carries out what its
/// `HTTPConnectionStateMachine` decides (requests to the router one at a time, responses in
/// request order, the timeouts), on the socket and one timer.
///
/// A client that stops reading holds little: a streamed body stops being made, pipelined
/// requests stop being read, and when a deadline passes (the idle timeout while a response
/// is unwritten) without the socket having taken a byte, the client is dropped as a slow
/// consumer, like a WebSocket member past its output bound.
///
/// Confinement: every method runs on the connection's loop; the responder closures hop there
/// before touching it, which is what makes `@unchecked Sendable` true.
final class HTTPServerConnection: ConnectionHandler, @unchecked Sendable {
    private let connection: Connection
    private let router: Router
    private let configuration: HTTPServerConfiguration
    private let logger: Logger
    private var machine: HTTPConnectionStateMachine
    /// The machine's deadline, on the loop's clock. (Lazy only to capture `self`; made in `init`.)
    /// Weakly: the connection lets go of its handler when it closes, and the timer must not keep it.
    private lazy var timer: LoopTimer = connection.loop.clock.makeTimer(queue: connection.loop.queue) { [weak self] in
        self?.deadlinePassed()
    }
    /// The instant the timer is set for (nil: never), to set it again only when the machine's changes.
    private var timerDeadline: DispatchTime?
    /// The request in flight, for the access log and the response's framing.
    private var request: HTTPRequest?
    /// When the request in flight was handed to the router, for the access log.
    private var requestStarted: UInt64 = 0
    /// The streamed body being sent (the machine is `writing`).
    private var body: StreamedBodyWriter?

    init(connection: Connection, router: Router, configuration: HTTPServerConfiguration, logger: Logger) {
        self.connection = connection
        self.router = router
        self.configuration = configuration
        self.logger = logger
        machine = HTTPConnectionStateMachine(configuration: configuration, now: connection.loop.clock.now)
        syncTimer()
    }

    // MARK: ConnectionHandler

    func connection(_ connection: Connection, didRead bytes: UnsafeRawBufferPointer) {
        machine.received(bytes)
        proceed(nil)
    }

    func connectionDidReadEOF(_ connection: Connection) {
        machine.readEOF()
        proceed(nil)
    }

    func connectionDidDrain(_ connection: Connection) {
        proceed(machine.drained())
    }

    func connectionShouldShutDown(_ connection: Connection) {
        proceed(machine.shutdownRequested(now: now, output: output))
    }

    func connectionDidClose(_ connection: Connection, reason: Connection.CloseReason) {
        machine.closed()
        body = nil
        request = nil
        timer.cancel()
    }

    // MARK: Carrying out the machine's actions

    private var now: DispatchTime { connection.loop.clock.now }

    private var output: HTTPConnectionStateMachine.Output {
        .init(pending: connection.pendingOutputBytes, written: connection.bytesWritten)
    }

    /// Carries out `first`, then whatever the machine says follows, and sets the timer to its deadline.
    private func proceed(_ first: HTTPConnectionStateMachine.Action?) {
        // One reading of the clock per event: the loop does not wait in between.
        let now = self.now
        var action = first
        while true {
            if let action { perform(action) }
            guard let next = machine.next(now: now, output: output) else { break }
            action = next
        }
        syncTimer()
    }

    private func perform(_ action: HTTPConnectionStateMachine.Action) {
        switch action {
        case .sendContinue:
            connection.send(ByteChunk("HTTP/1.1 100 Continue\r\n\r\n"))
        case .deliver(let request, let number):
            dispatch(request, number: number)
        case .pauseReading:
            connection.pauseReading()
        case .resumeReading:
            connection.resumeReading()
        case .feedBody:
            feedBody()
        case .reject(let error):
            logger.debug("bad request from \(connection.remoteAddress?.description ?? "?"): \(error.message)")
            connection.send(HTTPResponse.error(error.status, error.message).serialized(keepAlive: false))
        case .requestTimedOut:
            connection.send(HTTPResponse.error(.requestTimeout, "request not received in time").serialized(keepAlive: false))
        case .close:
            connection.close()
        case .dropSlowConsumer:
            logger.debug("dropped \(connection.remoteAddress?.description ?? "?"): it read nothing of its response for the idle timeout")
            connection.dropSlowConsumer()
        case .abort:
            connection.abort()
        }
    }

    /// Sets the timer to the machine's deadline when it moved.
    private func syncTimer() {
        let deadline = machine.deadline
        guard deadline != timerDeadline else { return }
        timerDeadline = deadline
        timer.schedule(at: deadline ?? .distantFuture)
    }

    private func deadlinePassed() {
        // The timer fired: whatever the machine decides, it is set again.
        timerDeadline = nil
        proceed(machine.deadlinePassed(now: now, output: output))
    }

    // MARK: Requests

    private func dispatch(_ parsed: HTTPRequest, number: Int) {
        var addressed = parsed
        addressed.remoteAddress = connection.remoteAddress
        addressed.forwardedClient = configuration.forwardedClient?(addressed)
        let request = addressed
        self.request = request
        requestStarted = DispatchTime.now().uptimeNanoseconds
        let loop = connection.loop
        let responder = HTTPResponder(
            deliver: { [weak self] response in
                let target = self
                loop.execute { target?.finish(number: number, response) }
            },
            switchProtocols: { [weak self] response, makeHandler, ifGone in
                let target = self
                loop.execute {
                    guard let target, target.switchProtocols(number: number, response, makeHandler) else { return ifGone() }
                }
            })
        router.handle(request, responder)
    }

    private func finish(number: Int, _ response: HTTPResponse) {
        guard let request else { return }
        let sendsBody = request.method != .HEAD && !response.status.forbidsBody
        let streamed = response.stream.flatMap { sendsBody ? $0 : nil }
        guard
            let framing = machine.responseReady(
                number: number, keepAliveAsked: request.keepAlive, streamsBody: streamed != nil, now: now, output: output)
        else { return }
        let keepAlive = framing.keepAlive
        self.request = nil
        configuration.accessLog?.record(
            request, status: response.status, bytes: sendsBody ? response.stream?.length ?? response.body.count : 0, since: requestStarted)
        connection.send(response.serialized(headRequest: request.method == .HEAD, keepAlive: keepAlive))
        if let streamed {
            body = StreamedBodyWriter(streamed)
            return proceed(.feedBody)
        }
        proceed(nil)
    }

    /// Queues the next pieces of the streamed body, as far ahead as the bound allows.
    private func feedBody() {
        guard var writer = body else { return }
        let ahead = min(configuration.streamAhead, connection.limits.maxPendingOutput / 4)
        let progress = writer.feed(connection, ahead: ahead)
        body = writer
        switch progress {
        case .waiting:
            break
        case .finished:
            body = nil
            machine.bodyFinished(now: now, output: output)
        case .wrongLength(let count):
            // The response's framing is broken: the client must not take what follows as a response.
            logger.error("a streamed body gave \(count) bytes, not the length it announced; connection dropped")
            body = nil
            perform(machine.bodyBroken())
        }
    }

    /// False when the connection cannot switch any more (it closed while the request was handled).
    private func switchProtocols(number: Int, _ response: HTTPResponse, _ makeHandler: ProtocolSwitch) -> Bool {
        guard let request, let upgrade = machine.switchProtocols(number: number) else { return false }
        self.request = nil
        configuration.accessLog?.record(request, status: response.status, bytes: 0, since: requestStarted)
        connection.send(response.serialized(keepAlive: true))
        timer.cancel()
        if upgrade.resumeReading { connection.resumeReading() }
        let next = makeHandler(connection)
        connection.replaceHandler(next)
        // Bytes that arrived behind the request belong to the new protocol, before any later read.
        if !upgrade.leftover.isEmpty { upgrade.leftover.withUnsafeBytes { next.connection(connection, didRead: $0) } }
        if upgrade.shutDown { next.connectionShouldShutDown(connection) }
        return true
    }
}
