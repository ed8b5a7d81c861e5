import Dispatch
import Sockets

/// The lifecycle of one HTTP/1.1 server connection, without the socket: events in (bytes,
/// the peer's FIN, a response ready, the output drained, a shutdown, a deadline passed, each
/// with the time `now` and the state of the output), actions out. `HTTPServerConnection`
/// carries the actions out on a real connection; tests drive this directly and exactly.
///
/// Requests are handed out one at a time (responses go out in request order, so pipelining
/// is safe), and each phase has its deadline, armed when the phase is entered (not on every
/// byte, so a trickle cannot keep extending it): the header timeout while a head arrives
/// (and for a new connection to start one), the body timeout while its body arrives, the
/// idle timeout between requests, while a streamed body is sent and while the last response
/// is flushed. `deadline` is the one instant the shell's timer must fire at (nil: none).
///
/// Events the shell cannot send (a response while none is asked for, a deadline before it is
/// due) are ignored by design: a handler may answer twice or after the connection closed,
/// and a timer's fire may be queued behind the event that moved its deadline. The one
/// precondition is `bodyFinished`, which only the shell's body writer reports, and only
/// while the machine is `writing`.
///
/// A value with no allocation of its own per event: each call returns one action (or nil),
/// and `next` yields what follows until it returns nil.
struct HTTPConnectionStateMachine {
    /// What the shell does. After any event that returned an action, and after carrying one
    /// out, the shell calls `next` until it returns nil.
    enum Action {
        /// Send `100 Continue`: the client waits for it before sending the body.
        case sendContinue
        /// Hand the request to the router; its answer comes back as `responseReady(number:)`.
        case deliver(HTTPRequest, number: Int)
        /// Stop reading: this much output waits for the socket, pipelined requests wait too.
        case pauseReading
        /// Read again: the output drained.
        case resumeReading
        /// Feed the streamed body further: the socket took what waited.
        case feedBody
        /// Answer a request that cannot be read with its error; `close` follows.
        case reject(HTTPParseError)
        /// Answer 408: the request did not arrive in time; `close` follows.
        case requestTimedOut
        /// Close once everything queued is written (the shell's lingering close).
        case close
        /// The client read nothing of its response for a whole idle timeout: drop it.
        case dropSlowConsumer
        /// Close at once, dropping what is queued: a streamed body broke its framing, and the
        /// client must not take what follows as a response.
        case abort
    }

    /// The part of the connection's output the decisions depend on.
    struct Output: Equatable {
        /// Bytes queued and not yet written.
        var pending: Int
        /// Bytes the socket has taken since the connection opened: a reader's progress.
        var written: Int

        init(pending: Int = 0, written: Int = 0) {
            self.pending = pending
            self.written = written
        }
    }

    enum Phase: Equatable {
        /// Between requests (keep-alive): the idle timeout runs.
        case idle
        /// A head is arriving (or a new connection has yet to start one): the header timeout runs.
        case receivingHead
        /// A head is parsed and its body is arriving: the body timeout runs.
        case receivingBody
        /// The router has request `number`; no deadline (a handler may take its time).
        case handling(number: Int)
        /// A streamed body is being sent; the connection stays open after it if `keepAlive`.
        case writing(keepAlive: Bool)
        /// The last response is flushed; `announced`: the shell was told to close.
        case closing(announced: Bool)
        /// Another protocol took the connection over (WebSocket).
        case upgraded
        /// The connection closed: nothing more is sent or switched.
        case closed
    }

    private(set) var phase = Phase.receivingHead
    /// When the shell's timer must fire; nil: no deadline in this phase.
    private(set) var deadline: DispatchTime?
    private var parser: HTTPRequestParser
    private let timeouts: Timeouts
    private let pipelineOutputLimit: Int
    /// The peer sent FIN: answer what is buffered, then close.
    private var peerFinished = false
    private var shuttingDown = false
    /// Reading is paused until the output drains.
    private var waitingForDrain = false
    /// Numbers the requests, so a handler that answers twice (or late) is ignored.
    private var requestNumber = 0
    /// `Output.written` when the deadline was armed: progress since shows a client that
    /// reads, however slowly, and earns it another period.
    private var writtenAtDeadline = 0

    /// The three timeouts, in nanoseconds.
    struct Timeouts {
        var header: UInt64
        var body: UInt64
        var idle: UInt64

        init(_ configuration: HTTPServerConfiguration) {
            header = configuration.headerTimeout.nanoseconds
            body = configuration.bodyTimeout.nanoseconds
            idle = configuration.idleTimeout.nanoseconds
        }
    }

    /// A new connection at `now`: it must start a request as promptly as a request must finish its head.
    init(configuration: HTTPServerConfiguration, now: DispatchTime) {
        parser = HTTPRequestParser(limits: configuration.parserLimits)
        timeouts = Timeouts(configuration)
        pipelineOutputLimit = configuration.pipelineOutputLimit
        deadline = now + .nanoseconds(Int(timeouts.header))
    }

    // MARK: Events

    /// Bytes from the peer. Ignored once upgraded (the new protocol reads them) or closed.
    mutating func received(_ bytes: UnsafeRawBufferPointer) {
        switch phase {
        case .upgraded, .closed: return
        default: parser.append(bytes)
        }
    }

    /// `received` for bytes in a collection (tests, the bytes behind an upgrade).
    mutating func received<Bytes: Sequence<UInt8>>(_ bytes: Bytes) {
        switch phase {
        case .upgraded, .closed: return
        default: parser.append(bytes)
        }
    }

    /// The peer finished sending (FIN): what is buffered is answered, then the connection closes.
    mutating func readEOF() {
        peerFinished = true
    }

    /// Everything queued was written.
    mutating func drained() -> Action? {
        if case .writing = phase { return .feedBody }
        guard waitingForDrain else { return nil }
        waitingForDrain = false
        switch phase {
        case .closing, .upgraded, .closed: return nil
        default: return .resumeReading
        }
    }

    /// The server shuts down gracefully: an idle connection closes now, one with a request in
    /// flight or a body being streamed after that response (without keep-alive).
    mutating func shutdownRequested(now: DispatchTime, output: Output) -> Action? {
        shuttingDown = true
        switch phase {
        case .idle, .receivingHead, .receivingBody:
            enter(.closing(announced: true), now: now, output: output)
            return .close
        case .handling, .writing, .closing, .upgraded, .closed:
            return nil
        }
    }

    /// How the shell sends the response of the request in flight, then calls `next`.
    struct Response: Equatable {
        /// `Connection: keep-alive`, or `close` (the connection closes after it).
        var keepAlive: Bool
        /// Its body follows as the socket drains (`drained` says `feedBody`; report `bodyFinished`).
        var streamsBody: Bool
    }

    /// The router answered request `number`. Ignored (nil) unless it is the request in flight.
    /// `keepAliveAsked`: the request allows keep-alive; `streamsBody`: a streamed body follows.
    mutating func responseReady(number: Int, keepAliveAsked: Bool, streamsBody: Bool, now: DispatchTime, output: Output) -> Response? {
        guard phase == .handling(number: number) else { return nil }
        let keepAlive = keepAliveAsked && !shuttingDown && !peerFinished
        if streamsBody {
            enter(.writing(keepAlive: keepAlive), now: now, output: output)
        } else {
            responded(keepAlive: keepAlive, now: now, output: output)
        }
        return Response(keepAlive: keepAlive, streamsBody: streamsBody)
    }

    /// The streamed body is complete; `next` says what follows. Only while `writing` (a
    /// precondition: only the body writer, which exists only then, reports it).
    mutating func bodyFinished(now: DispatchTime, output: Output) {
        guard case .writing(let keepAlive) = phase else { preconditionFailure("bodyFinished while \(phase)") }
        responded(keepAlive: keepAlive, now: now, output: output)
    }

    /// The streamed body gave more or fewer bytes than its head announced.
    mutating func bodyBroken() -> Action {
        phase = .closing(announced: true)
        deadline = nil
        return .abort
    }

    /// Request `number` switches to another protocol (its 101 is sent by the shell). False when
    /// it cannot any more: the request is not the one in flight, or the connection closed.
    mutating func switchProtocols(number: Int) -> Upgrade? {
        guard phase == .handling(number: number) else { return nil }
        phase = .upgraded
        deadline = nil
        let resume = waitingForDrain
        waitingForDrain = false
        return Upgrade(resumeReading: resume, shutDown: shuttingDown, leftover: parser.takeRemainingBytes())
    }

    /// What the shell does when it switches protocols.
    struct Upgrade: Equatable {
        /// Reading was paused for pipelined output: the new protocol reads again.
        var resumeReading: Bool
        /// The server began shutting down while the request was handled: the new protocol winds down too.
        var shutDown: Bool
        /// Bytes that arrived behind the request: the new protocol's, before any later read.
        var leftover: [UInt8]
    }

    /// The shell's timer fired at `now`. Before the deadline (a fire queued behind the event
    /// that moved it) or in a phase without one, nothing happens.
    mutating func deadlinePassed(now: DispatchTime, output: Output) -> Action? {
        guard let deadline, now >= deadline else { return nil }
        // Output still waits for the socket: the client took some since the deadline was set
        // (it reads, slowly) and gets another period, or it took nothing and is dropped.
        if output.pending > 0 || isWriting {
            if output.written > writtenAtDeadline {
                arm(now: now, output: output)
                return nil
            }
            phase = .closing(announced: true)
            self.deadline = nil
            return .dropSlowConsumer
        }
        switch phase {
        case .idle:
            enter(.closing(announced: true), now: now, output: output)
            return .close
        case .receivingHead, .receivingBody:
            enter(.closing(announced: false), now: now, output: output)
            return .requestTimedOut
        case .closing:
            // The close was announced; the connection's lingering close bounds the rest.
            self.deadline = nil
            return nil
        case .handling, .writing, .upgraded, .closed:
            return nil
        }
    }

    /// The connection closed (for whatever reason): nothing more happens.
    mutating func closed() {
        phase = .closed
        deadline = nil
    }

    /// What follows from the state: the next request parsed, a close that is due. Call after
    /// every event and every action until nil.
    mutating func next(now: DispatchTime, output: Output) -> Action? {
        switch phase {
        case .closing(announced: false):
            phase = .closing(announced: true)
            return .close
        case .idle, .receivingHead, .receivingBody:
            break
        case .handling, .writing, .closing, .upgraded, .closed:
            return nil
        }
        if waitingForDrain { return nil }
        if output.pending > pipelineOutputLimit {
            waitingForDrain = true
            return .pauseReading
        }
        let event: HTTPRequestParser.Event?
        do {
            event = try parser.next()
        } catch {
            enter(.closing(announced: false), now: now, output: output)
            return .reject(error)
        }
        switch event {
        case .continueExpected:
            return .sendContinue
        case .request(let request):
            requestNumber += 1
            enter(.handling(number: requestNumber), now: now, output: output)
            return .deliver(request, number: requestNumber)
        case nil:
            if peerFinished || shuttingDown {
                enter(.closing(announced: true), now: now, output: output)
                return .close
            }
            enter(parser.hasCompleteHead ? .receivingBody : parser.isMidRequest ? .receivingHead : .idle, now: now, output: output)
            return nil
        }
    }

    // MARK: Phases and deadlines

    private var isWriting: Bool {
        if case .writing = phase { return true }
        return false
    }

    private mutating func responded(keepAlive: Bool, now: DispatchTime, output: Output) {
        if keepAlive && !shuttingDown {
            enter(.idle, now: now, output: output)
        } else {
            enter(.closing(announced: false), now: now, output: output)
        }
    }

    /// Arms the deadline of a phase when the connection enters it, not again while it stays.
    private mutating func enter(_ next: Phase, now: DispatchTime, output: Output) {
        guard next != phase else { return }
        phase = next
        arm(now: now, output: output)
    }

    private mutating func arm(now: DispatchTime, output: Output) {
        writtenAtDeadline = output.written
        switch phase {
        case .idle, .writing, .closing: deadline = now + .nanoseconds(Int(timeouts.idle))
        case .receivingHead: deadline = now + .nanoseconds(Int(timeouts.header))
        case .receivingBody: deadline = now + .nanoseconds(Int(timeouts.body))
        case .handling, .upgraded, .closed: deadline = nil
        }
    }
}
