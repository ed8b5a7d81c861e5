import CorkboardModel

/// The answer to one operation (docs/protocol.md#outcomes), after any resends the client made
/// on its own.
public enum OperationResult: Sendable, Hashable {
    /// Sequenced: the event as every member received it (or, for an opId the server had
    /// already committed before a reconnect, that first event again).
    case committed(CommittedEvent)
    /// A move that would change nothing; nothing was sequenced.
    case noop(Noop)
    /// Refused; nothing changed. Transient codes the client retries on its own
    /// (`BoardClientConfiguration.retriedRejections`) only arrive here once it stopped trying.
    case rejected(RejectionCode, message: String)
    /// No answer will come: the client closed, gave up reconnecting, or the operation
    /// timed out. The server may or may not have applied it; its opId is in `opId`.
    case unanswered(opId: OperationID, BoardClientError)

    public var isCommitted: Bool {
        if case .committed = self { return true }
        return false
    }

    /// The committed event, if it was committed.
    public var event: CommittedEvent? {
        if case .committed(let event) = self { return event }
        return nil
    }

    /// The rejection code, if it was rejected.
    public var rejection: RejectionCode? {
        if case .rejected(let code, _) = self { return code }
        return nil
    }
}

/// Why a client could not join, stopped, or left an operation unanswered.
public enum BoardClientError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No WebSocket: the TCP connection or the handshake failed (or timed out).
    case cannotConnect(String)
    /// The server answered `hello` with an `error` (`not-found`, `forbidden`, `invalid`,
    /// `unavailable`) and closed.
    case refused(code: String, message: String)
    /// Reconnecting failed this many times in a row (`maximumReconnectAttempts`).
    case gaveUp(attempts: Int, lastProblem: String)
    /// `close()` was called.
    case closed
    /// No answer within `operationTimeout`.
    case timedOut
    /// `connect()` was called on a client that had already been started.
    case alreadyStarted

    public var description: String {
        switch self {
        case .cannotConnect(let problem): "cannot connect: \(problem)"
        case .refused(let code, let message): "the server refused to join (\(code)): \(message)"
        case .gaveUp(let attempts, let problem): "gave up after \(attempts) failed reconnect attempts (last: \(problem))"
        case .closed: "the client was closed"
        case .timedOut: "no answer in time"
        case .alreadyStarted: "the client was already started"
        }
    }
}
