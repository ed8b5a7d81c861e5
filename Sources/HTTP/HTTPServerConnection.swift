import Dispatch
import Logging
import Sockets

/// Timeouts and limits of the HTTP server.
public struct HTTPServerConfiguration: Sendable {
    public var parserLimits = HTTPRequestParser.Limits()
    /// A request head must arrive within this time from its first byte (and a new connection
    /// must start one within it): a client that trickles headers (slowloris) gets 408 and is closed.
    public var headerTimeout: DispatchTimeInterval = .seconds(10)
    /// A request body must arrive within this time from the end of its head.
    public var bodyTimeout: DispatchTimeInterval = .seconds(30)
    /// An idle keep-alive connection is closed after this time.
    public var idleTimeout: DispatchTimeInterval = .seconds(60)
    /// While this many response bytes are unwritten, no further pipelined request is read:
    /// a client that sends and never reads holds at most this much of our memory.
    public var pipelineOutputLimit = 256 * 1024
    /// A streamed body (`HTTPBodyStream`) is made no further ahead of the socket than this
    /// (nor than a quarter of the connection's output bound).
    public var streamAhead = 256 * 1024
    /// Connections held open at once, in total (default 20,000) and per client address (off;
    /// never applied to loopback). A connection over a limit is answered 503 and closed.
    public var admission = AdmissionLimits(maxConnections: 20_000)
    /// Where a line for each answered request goes; nil: nowhere.
    public var accessLog: AccessLog?
    /// Who the client of a request is when a proxy forwarded it: given the request (its
    /// `remoteAddress` filled), the client's address, or nil when the peer is the client. Set
    /// on every request before it is routed; nil (the default): every peer is its own client.
    /// Connection limits (`admission`) apply at accept, before any header, so they still
    /// count the peer.
    public var forwardedClient: (@Sendable (HTTPRequest) -> String?)?

    public init() {}
}

/// HTTP/1.1 on one connection: parses requests, hands them to the router one at a time
/// (responses go out in request order, so pipelining is safe), applies the timeouts.
///
/// A client that stops reading holds little: a streamed body stops being made, pipelined
/// requests stop being read, and when a deadline passes (the idle timeout while a response
/// is unwritten) without the socket having taken a byte, the client is dropped as a slow
/// consumer, like a WebSocket member past its output bound.
///
/// Confinement: every method runs on the connection's loop; the responder closures hop there
/// before touching it, which is what makes `@unchecked Sendable` true.
final class HTTPServerConnection: ConnectionHandler, @unchecked Sendable {
    /// `writing`: a streamed body is being sent; `closing`: the last response is being flushed.
    private enum Phase { case idle, receivingHead, receivingBody, handling, writing, closing, upgraded }

    private let connection: Connection
    private let router: Router
    private let configuration: HTTPServerConfiguration
    private let logger: Logger
    private var parser: HTTPRequestParser
    private var phase = Phase.idle
    private let timer: DispatchSourceTimer
    /// The peer sent FIN: answer what is buffered, then close.
    private var peerFinished = false
    private var shuttingDown = false
    private var closing = false
    /// The connection closed: nothing can be sent or switched to any more.
    private var isClosed = false
    private var waitingForDrain = false
    /// Identifies the request in flight, so a handler that answers twice is ignored.
    private var requestNumber = 0
    /// When the request in flight was handed to the router, for the access log.
    private var requestStarted: UInt64 = 0
    /// The streamed body being sent (phase `writing`), and whether the connection stays open after it.
    private var body: StreamedBodyWriter?
    private var keepAliveAfterBody = false
    /// `connection.bytesWritten` when the current deadline was armed: progress since then
    /// shows a client that reads, however slowly.
    private var writtenAtDeadline = 0

    init(connection: Connection, router: Router, configuration: HTTPServerConfiguration, logger: Logger) {
        self.connection = connection
        self.router = router
        self.configuration = configuration
        self.logger = logger
        parser = HTTPRequestParser(limits: configuration.parserLimits)
        timer = DispatchSource.makeTimerSource(queue: connection.loop.queue)
        timer.setEventHandler { [weak self] in self?.timeout() }
        // A new connection must start a request as promptly as a request must finish its head.
        timer.schedule(deadline: .now() + configuration.headerTimeout)
        phase = .receivingHead
        timer.resume()
    }

    func connection(_ connection: Connection, didRead bytes: UnsafeRawBufferPointer) {
        guard phase != .upgraded else { return }
        parser.append(bytes)
        processRequests()
    }

    func connectionDidReadEOF(_ connection: Connection) {
        peerFinished = true
        processRequests()
    }

    func connectionDidDrain(_ connection: Connection) {
        if phase == .writing { return feedBody() }
        guard waitingForDrain else { return }
        waitingForDrain = false
        connection.resumeReading()
        processRequests()
    }

    func connectionShouldShutDown(_ connection: Connection) {
        shuttingDown = true
        if phase != .handling && phase != .writing { closeAfterFlush() }
    }

    func connectionDidClose(_ connection: Connection, reason: Connection.CloseReason) {
        isClosed = true
        timer.cancel()
    }

    // MARK: Requests

    private func processRequests() {
        while phase != .handling && phase != .writing && phase != .upgraded && !closing {
            if connection.pendingOutputBytes > configuration.pipelineOutputLimit {
                waitingForDrain = true
                connection.pauseReading()
                return
            }
            let event: HTTPRequestParser.Event?
            do {
                event = try parser.next()
            } catch {
                fail(error)
                return
            }
            switch event {
            case .continueExpected:
                connection.send(ByteChunk("HTTP/1.1 100 Continue\r\n\r\n"))
            case .request(let request):
                dispatch(request)
            case nil:
                if peerFinished || shuttingDown {
                    closeAfterFlush()
                    return
                }
                enter(parser.hasCompleteHead ? .receivingBody : parser.isMidRequest ? .receivingHead : .idle)
                return
            }
        }
    }

    private func dispatch(_ parsed: HTTPRequest) {
        var addressed = parsed
        addressed.remoteAddress = connection.remoteAddress
        addressed.forwardedClient = configuration.forwardedClient?(addressed)
        let request = addressed
        enter(.handling)
        requestNumber += 1
        requestStarted = DispatchTime.now().uptimeNanoseconds
        let number = requestNumber
        let loop = connection.loop
        let responder = HTTPResponder(
            deliver: { [weak self] response in
                let target = self
                loop.execute { target?.finish(request, number: number, response) }
            },
            switchProtocols: { [weak self] response, makeHandler, ifGone in
                let target = self
                loop.execute {
                    guard let target, target.switchProtocols(request, number: number, response, makeHandler) else { return ifGone() }
                }
            })
        router.handle(request, responder)
    }

    private func finish(_ request: HTTPRequest, number: Int, _ response: HTTPResponse) {
        guard phase == .handling, number == requestNumber else { return }
        let sendsBody = request.method != .HEAD && !response.status.forbidsBody
        configuration.accessLog?.record(
            request, status: response.status, bytes: sendsBody ? response.stream?.length ?? response.body.count : 0, since: requestStarted)
        let keepAlive = request.keepAlive && !shuttingDown && !peerFinished
        connection.send(response.serialized(headRequest: request.method == .HEAD, keepAlive: keepAlive))
        if let stream = response.stream, sendsBody {
            body = StreamedBodyWriter(stream)
            keepAliveAfterBody = keepAlive
            enter(.writing)
            return feedBody()
        }
        responded(keepAlive: keepAlive)
    }

    private func responded(keepAlive: Bool) {
        if keepAlive && !shuttingDown {
            enter(.idle)
            processRequests()
        } else {
            closeAfterFlush()
        }
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
            responded(keepAlive: keepAliveAfterBody)
        case .wrongLength(let count):
            // The response's framing is broken: the client must not take what follows as a response.
            logger.error("a streamed body gave \(count) bytes, not the length it announced; connection dropped")
            body = nil
            connection.abort()
        }
    }

    /// False when the connection cannot switch any more (it closed while the request was handled).
    private func switchProtocols(_ request: HTTPRequest, number: Int, _ response: HTTPResponse, _ makeHandler: ProtocolSwitch) -> Bool {
        guard phase == .handling, number == requestNumber, !isClosed else { return false }
        configuration.accessLog?.record(request, status: response.status, bytes: 0, since: requestStarted)
        connection.send(response.serialized(keepAlive: true))
        enter(.upgraded)
        timer.cancel()
        if waitingForDrain {
            waitingForDrain = false
            connection.resumeReading()
        }
        let next = makeHandler(connection)
        connection.replaceHandler(next)
        // Bytes that arrived behind the request belong to the new protocol, before any later read.
        let buffered = parser.takeRemainingBytes()
        if !buffered.isEmpty { buffered.withUnsafeBytes { next.connection(connection, didRead: $0) } }
        // The server began shutting down while the request was handled: the new protocol winds down too.
        if shuttingDown { next.connectionShouldShutDown(connection) }
        return true
    }

    private func fail(_ error: HTTPParseError) {
        logger.debug("bad request from \(connection.remoteAddress?.description ?? "?"): \(error.message)")
        connection.send(HTTPResponse.error(error.status, error.message).serialized(keepAlive: false))
        closeAfterFlush()
    }

    /// Closes once the last response is written; the deadline still drops a client that stops reading it.
    private func closeAfterFlush() {
        guard !closing else { return }
        closing = true
        enter(.closing)
        connection.close()
    }

    // MARK: Timeouts

    /// Arms the deadline of a phase when the connection enters it (not on every byte, so a
    /// trickle cannot keep extending it).
    private func enter(_ next: Phase) {
        guard next != phase else { return }
        phase = next
        armDeadline()
    }

    private func armDeadline() {
        writtenAtDeadline = connection.bytesWritten
        switch phase {
        case .idle, .writing, .closing: timer.schedule(deadline: .now() + configuration.idleTimeout)
        case .receivingHead: timer.schedule(deadline: .now() + configuration.headerTimeout)
        case .receivingBody: timer.schedule(deadline: .now() + configuration.bodyTimeout)
        case .handling, .upgraded: timer.schedule(deadline: .distantFuture)
        }
    }

    private func timeout() {
        guard phase != .handling && phase != .upgraded else { return }
        // Output still waits for the socket: the client took some since the deadline was set
        // (it reads, slowly) and gets another period, or it took nothing and is dropped.
        if connection.pendingOutputBytes > 0 || phase == .writing {
            if connection.bytesWritten > writtenAtDeadline { return armDeadline() }
            logger.debug("dropped \(connection.remoteAddress?.description ?? "?"): it read nothing of its response for the idle timeout")
            return connection.dropSlowConsumer()
        }
        switch phase {
        case .idle:
            closeAfterFlush()
        case .receivingHead, .receivingBody:
            connection.send(HTTPResponse.error(.requestTimeout, "request not received in time").serialized(keepAlive: false))
            closeAfterFlush()
        case .closing, .handling, .writing, .upgraded:
            break
        }
    }
}
