import Dispatch
import Glibc

/// The lifecycle of one TCP connection, without the socket: what the reads, the flushes, the
/// transport filter and the protocol on top report goes in, what the connection must do
/// comes out. `Connection` keeps the descriptor, its epoll registration and its buffers, and
/// carries the actions out; tests drive this directly, with time as an argument.
///
/// The decisions kept here: when reading is wanted (`isReading`; the shell watches the
/// descriptor for input to match), when the output bound is passed, when a close may
/// linger and until when (`lingerDeadline`), why the connection closed (`closeReason`), and
/// what a failed transport filter (TLS) still sends.
///
/// Events that cannot change anything once closed (a late send, a second abort, a read
/// result queued behind the close) are ignored by design: any thread may ask a connection to
/// close or abort at any time. `start` more than once is a precondition.
struct ConnectionStateMachine {
    enum State: Equatable {
        case open
        /// Closing once everything queued is written (reading stopped).
        case closingAfterFlush
        /// Everything was written and the write side shut down; input is read and discarded
        /// until the peer closes or the linger limits are reached.
        case lingering
        case closed
    }

    /// What the connection does.
    enum Action: Equatable {
        /// Close now, dropping what is queued: leave the loop's epoll, then close the
        /// descriptor, for `closeReason`.
        case terminate
        /// Flush the output (on the loop's flush list).
        case flush
        /// Everything is written: shut the write side down and report `writeShutDown`.
        case shutDownWrite
        /// Tell the handler the peer finished sending.
        case tellHandlerEOF
        /// Tell the handler everything queued was written.
        case tellHandlerDrained
    }

    /// What `enqueue` decides for bytes to send.
    enum Enqueue: Equatable {
        /// Queue them (as plaintext for the filter, if any) and flush.
        case accept
        /// Drop them: the connection is closing without room for more, or closed.
        case drop
        /// The peer stopped reading and the bound is passed: `terminate` (reason `.outputOverflow`).
        case overflow
    }

    private(set) var state = State.open
    private(set) var closeReason = Connection.CloseReason.local
    /// Whether the descriptor should be watched for input.
    private(set) var isReading = false
    /// When a lingering close gives up on the peer (nil unless lingering).
    private(set) var lingerDeadline: DispatchTime?
    /// The transport filter failed: nothing more is decoded or encoded, only its alert is flushed.
    private(set) var filterFailed = false
    /// `start` has run: there is a handler to read for.
    private var started = false
    /// The peer sent FIN: nothing of its input can be left unread when we close.
    private var peerFinished = false
    /// The filter's close_notify is encoded.
    private var closeNotified = false
    /// Bytes discarded while lingering.
    private var lingered = 0
    /// The connection's limits, shared (read, never copied: 8 bytes here instead of 40).
    private let sharedLimits: SharedLimits
    private let hasFilter: Bool

    init(limits: SharedLimits, hasFilter: Bool) {
        sharedLimits = limits
        self.hasFilter = hasFilter
    }

    init(limits: Connection.Limits, hasFilter: Bool) {
        self.init(limits: SharedLimits(limits), hasFilter: hasFilter)
    }

    private var limits: Connection.Limits { sharedLimits.limits }

    // MARK: The protocol's side

    /// The handler is installed: reading starts. False when the connection was aborted before it started.
    mutating func start() -> Bool {
        precondition(!started, "a connection is started once")
        guard state == .open else { return false }
        started = true
        isReading = true
        return true
    }

    /// Backpressure: stop reading until `resumeReading`. A lingering connection keeps reading
    /// (and discarding) until it closes.
    mutating func pauseReading() {
        if state == .open || state == .closingAfterFlush { isReading = false }
    }

    /// True when reading resumed (the shell then also delivers what the filter holds decoded).
    mutating func resumeReading() -> Bool {
        guard !isReading, state == .open else { return false }
        isReading = true
        return true
    }

    /// Whether bytes read may go to the handler now.
    var delivers: Bool { state == .open && isReading }

    /// Bytes to send, with `pending` bytes already queued (encoded and not).
    mutating func enqueue(count: Int, pending: Int) -> Enqueue {
        guard state == .open || state == .closingAfterFlush, !filterFailed else { return .drop }
        if pending > 0 && pending + count > limits.maxPendingOutput {
            terminate(.outputOverflow)
            return .overflow
        }
        return .accept
    }

    /// Close once everything queued is written, with a lingering close. `filterEstablished`:
    /// the filter's handshake is done (before it, a filtered connection has nothing it could
    /// send); `outputEmpty`: nothing waits to be written.
    mutating func close(filterEstablished: Bool, outputEmpty: Bool) -> Action? {
        guard state == .open else { return nil }
        if hasFilter && !filterEstablished { return terminate(closeReason) }
        state = .closingAfterFlush
        isReading = false
        // A filtered connection flushes in any case: its close_notify is still to be sent.
        return outputEmpty && !hasFilter ? everythingWritten() : .flush
    }

    /// Close at once, dropping what is queued (`.aborted`), or as a slow consumer (`.outputOverflow`).
    mutating func abort(_ reason: Connection.CloseReason = .aborted) -> Action? {
        guard state != .closed else { return nil }
        return terminate(reason)
    }

    /// Whether a graceful shutdown reaches the handler: only an open, started connection has one to tell.
    var takesShutdown: Bool { state == .open && started }

    // MARK: The socket's side

    /// `count` bytes read while lingering and thrown away: the linger ends past its bytes.
    mutating func discarded(count: Int) -> Action? {
        guard state == .lingering else { return nil }
        lingered += count
        return lingered > limits.lingerBytes ? terminate(closeReason) : nil
    }

    /// The peer sent FIN.
    mutating func readEndOfFile() -> Action? {
        switch state {
        case .lingering:
            return terminate(closeReason)
        case .open, .closingAfterFlush:
            isReading = false
            peerFinished = true
            closeReason = .peerClosed
            return .tellHandlerEOF
        case .closed:
            return nil
        }
    }

    /// A read failed with `code` (while lingering: whatever the reason, the linger ends).
    mutating func readFailed(_ code: Int32) -> Action? {
        switch state {
        case .lingering: terminate(closeReason)
        case .open, .closingAfterFlush: terminate(Self.reason(code))
        case .closed: nil
        }
    }

    /// What a flush did. `wasPending`: output waited before it; `plaintextLeft`: the filter
    /// has plaintext still to encode.
    mutating func flushed(_ result: Socket.IOResult, wasPending: Bool, plaintextLeft: Bool) -> Action? {
        guard state != .closed else { return nil }
        switch result {
        case .transferred:
            if state == .closingAfterFlush { return everythingWritten() }
            return wasPending && !plaintextLeft ? .tellHandlerDrained : nil
        case .wouldBlock, .endOfFile:
            return nil
        case .failed(let code):
            return terminate(Self.reason(code))
        }
    }

    /// The write side is shut down (`succeeded`) or could not be: lingering starts at `now`, or the connection ends.
    mutating func writeShutDown(succeeded: Bool, now: DispatchTime) -> Action? {
        guard state == .closingAfterFlush else { return nil }
        guard succeeded else { return terminate(closeReason) }
        state = .lingering
        isReading = true
        lingerDeadline = now + limits.lingerTime
        return nil
    }

    /// The linger's timer fired at `now`.
    mutating func lingerTimeReached(now: DispatchTime) -> Action? {
        guard state == .lingering, let lingerDeadline, now >= lingerDeadline else { return nil }
        return terminate(closeReason)
    }

    // MARK: The transport filter's side

    /// The peer closed the filter's session in order (TLS close_notify): the end of its data.
    mutating func filterClosed() -> Action? {
        guard state == .open else { return nil }
        isReading = false
        closeReason = .peerClosed
        return .tellHandlerEOF
    }

    /// The filter gave up. `outputLeft`: output (its alert, if any) waits in the queue, and is still sent.
    mutating func filterFailed(_ failure: TransportFailure, outputLeft: Bool) -> Action? {
        guard state != .closed else { return nil }
        filterFailed = true
        closeReason = .transportFailed(failure)
        guard outputLeft else { return terminate(closeReason) }
        state = .closingAfterFlush
        isReading = false
        return .flush
    }

    /// Whether the filter's close_notify is to be encoded now: once, when a closing connection
    /// has no plaintext left.
    mutating func closeNotifyDue(plaintextLeft: Bool) -> Bool {
        guard state == .closingAfterFlush, !plaintextLeft, !closeNotified else { return false }
        closeNotified = true
        return true
    }

    // MARK: Closing

    /// Everything is written while closing: linger, unless nothing could be left unread (the
    /// peer finished, or no handler ever read).
    private mutating func everythingWritten() -> Action {
        guard !peerFinished, started else { return terminate(closeReason) }
        return .shutDownWrite
    }

    @discardableResult
    private mutating func terminate(_ reason: Connection.CloseReason) -> Action {
        state = .closed
        closeReason = reason
        isReading = false
        lingerDeadline = nil
        return .terminate
    }

    private static func reason(_ code: Int32) -> Connection.CloseReason {
        code == ECONNRESET || code == EPIPE ? .reset : .failed(code)
    }
}
