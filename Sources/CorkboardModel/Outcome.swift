/// What the engine answers for a request (docs/protocol.md#outcomes): a committed event,
/// a noop, or a rejection; and, for an opId seen before, its first outcome again.

/// A sequenced, resolved operation: the `committed` message and the log entry.
public struct CommittedEvent: Sendable, Hashable, Codable {
    public var seq: Int
    public var opId: OperationID
    public var client: ClientID
    /// The operation as resolved: applying it to the board at `seq - 1` gives `seq`.
    public var op: BoardOperation
    /// True when resolution changed what the client asked for.
    public var adjusted: Bool
    /// The server's commit time, milliseconds since 1970-01-01 UTC (``CommitStamp``). Nil, and
    /// absent on the wire, only for events stored before the stores kept it.
    public var at: Int?
    /// The author: a signed token's subject, else the name given in `hello` (``CommitStamp``).
    /// Nil, and absent on the wire, only for events stored before the stores kept it.
    public var by: String?

    public init(
        seq: Int, opId: OperationID, client: ClientID, op: BoardOperation, adjusted: Bool, at: Int? = nil, by: String? = nil
    ) {
        self.seq = seq
        self.opId = opId
        self.client = client
        self.op = op
        self.adjusted = adjusted
        self.at = at
        self.by = by
    }

    /// Stamped with when and by whom it was committed.
    public init(seq: Int, opId: OperationID, client: ClientID, op: BoardOperation, adjusted: Bool, stamp: CommitStamp?) {
        self.init(seq: seq, opId: opId, client: client, op: op, adjusted: adjusted, at: stamp?.at, by: stamp?.by)
    }
}

/// Why an operation was refused. Raw values are the wire codes.
public enum RejectionCode: String, Sendable, Hashable, Codable, CaseIterable {
    case locked
    case gone
    case busy
    case forbidden
    case invalid
    case rateLimited = "rate-limited"
    /// The server could not make it durable; nothing changed. Produced by the hub.
    case unavailable

    /// A permanent rejection is the opId's final outcome and is returned again on a resend;
    /// after a transient one the same opId is resolved anew (docs/protocol.md#resending-an-opid).
    public var isPermanent: Bool {
        switch self {
        case .gone, .invalid, .forbidden: true
        case .busy, .locked, .rateLimited, .unavailable: false
        }
    }
}

public struct Rejection: Sendable, Hashable {
    public var opId: OperationID
    public var code: RejectionCode
    /// For people reading logs and error bars; not for programs to parse.
    public var message: String

    public init(opId: OperationID, code: RejectionCode, message: String) {
        self.opId = opId
        self.code = code
        self.message = message
    }
}

/// A move that would change nothing: answered to the sender alone, not sequenced.
public struct Noop: Sendable, Hashable {
    public var opId: OperationID
    /// The board's seq when the noop was decided.
    public var seq: Int

    public init(opId: OperationID, seq: Int) {
        self.opId = opId
        self.seq = seq
    }
}

/// A leased item that a committed delete removed: the hub clears `holder`'s drag with
/// reason `deleted` (unless it decides otherwise for the deleter's own drag).
public struct LeaseHit: Sendable, Hashable {
    public var item: ItemID
    public var holder: ClientID

    public init(item: ItemID, holder: ClientID) {
        self.item = item
        self.holder = holder
    }
}

/// A newly committed event and what it did to live drags.
public struct Commit: Sendable, Hashable {
    public var event: CommittedEvent
    /// Leased items removed by a delete, in the order of the delete's items.
    public var leaseHits: [LeaseHit]

    public init(event: CommittedEvent, leaseHits: [LeaseHit] = []) {
        self.event = event
        self.leaseHits = leaseHits
    }

    /// The clients whose drags lost an item, each once, in order of first hit.
    public var holdersHit: [ClientID] {
        var seen = Set<ClientID>()
        return leaseHits.map(\.holder).filter { seen.insert($0).inserted }
    }
}

/// The final outcome remembered for an opId.
public enum RememberedOutcome: Sendable, Hashable {
    case committed(CommittedEvent)
    case noop(Noop)
    case rejected(Rejection)
}

/// The engine's answer to one request.
public enum Outcome: Sendable, Hashable {
    /// New event, applied to the engine's board: persist it, then broadcast it.
    case committed(Commit)
    /// Nothing to change: tell the sender alone.
    case noop(Noop)
    /// Refused, nothing changed: tell the sender alone.
    case rejected(Rejection)
    /// This opId was answered before: send that first outcome to the sender alone.
    /// Nothing changed.
    case repeated(RememberedOutcome)
}
