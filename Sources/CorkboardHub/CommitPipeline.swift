import CorkboardModel
import CorkboardStore
import Dispatch

/// Who hears the outcome of an operation: a WebSocket member of the room, or an HTTP request.
enum ReplyTarget: Sendable {
    case member(MemberKey)
    /// The HTTP caller hears the outcome once it may be told (a commit once it is durable).
    case http(@Sendable (Outcome) -> Void)
}

/// What the room sends once a batch is settled, in the order the operations arrived.
enum Delivery {
    /// A durable event: to every live member (and to its HTTP caller, if any), with the
    /// uptime in nanoseconds at which the sequencer committed it.
    case broadcast(CommittedEvent, ReplyTarget, committedAt: UInt64)
    /// An answer to the sender alone.
    case reply(Outcome, ReplyTarget)
}

/// The room's group commit: committed events wait here until the store says they are
/// durable, and answers that arrived after them wait behind them, so nobody hears of
/// anything (a noop, a repeated opId) that is based on a state which might yet be undone.
///
/// A value with no I/O: the room feeds it outcomes and store results, and carries out
/// the deliveries it returns.
struct CommitPipeline {
    private enum Entry {
        case event(CommittedEvent, ReplyTarget, committedAt: UInt64)
        case reply(Outcome, ReplyTarget)
    }

    private var outbox: [Entry] = []
    /// The last seq the store has made durable: what members and readers may see.
    private(set) var durableSeq: Int
    /// The last seq handed to the store (durable or being written).
    private var handedSeq: Int
    /// The last seq committed in the engine.
    private var committedSeq: Int
    /// Permanent rejections decided since the last batch, for opId replays after a restart.
    private var rejections: [Rejection] = []
    private(set) var isWriting = false

    init(durableSeq: Int) {
        self.durableSeq = durableSeq
        handedSeq = durableSeq
        committedSeq = durableSeq
    }

    /// True while events are committed in the engine but not yet durable.
    var hasUndurableEvents: Bool { committedSeq > durableSeq }

    /// A new event from the engine, to be written and then broadcast.
    mutating func add(_ event: CommittedEvent, from target: ReplyTarget, at committedAt: UInt64 = DispatchTime.now().uptimeNanoseconds) {
        precondition(event.seq == committedSeq + 1, "events enter the pipeline in seq order")
        committedSeq = event.seq
        outbox.append(.event(event, target, committedAt: committedAt))
    }

    /// An answer to the sender alone. Returns it when it can be sent at once (nothing is
    /// waiting to become durable), otherwise queues it behind the waiting events.
    mutating func answer(_ outcome: Outcome, to target: ReplyTarget) -> Delivery? {
        if case .rejected(let rejection) = outcome, rejection.code.isPermanent, Limits.isValidID(rejection.opId) {
            rejections.append(rejection)
        }
        guard outbox.isEmpty else {
            outbox.append(.reply(outcome, target))
            return nil
        }
        return .reply(outcome, target)
    }

    /// The next batch for the store, when none is being written and there is something to write.
    mutating func nextBatch(board: String) -> CommitBatch? {
        guard !isWriting, handedSeq < committedSeq || !rejections.isEmpty else { return nil }
        var events: [CommittedEvent] = []
        for entry in outbox {
            if case .event(let event, _, _) = entry, event.seq > handedSeq { events.append(event) }
        }
        let batch = CommitBatch(board: board, expectedSeq: handedSeq, events: events, rejections: rejections)
        rejections = []
        handedSeq = committedSeq
        isWriting = true
        return batch
    }

    /// The batch is durable: everything up to it goes out, in arrival order.
    mutating func batchSucceeded() -> [Delivery] {
        isWriting = false
        durableSeq = handedSeq
        var deliveries: [Delivery] = []
        var released = 0
        scan: for entry in outbox {
            switch entry {
            case .event(let event, let target, let committedAt):
                if event.seq > durableSeq { break scan }
                deliveries.append(.broadcast(event, target, committedAt: committedAt))
            case .reply(let outcome, let target):
                deliveries.append(.reply(outcome, target))
            }
            released += 1
        }
        outbox.removeFirst(released)
        return deliveries
    }

    /// The batch could not be made durable. The room reverts the engine to `durableSeq`;
    /// every event not yet durable is answered `unavailable` (nothing changed), and the
    /// answers queued behind them go out, a repeat of an undone event turned `unavailable` too.
    mutating func batchFailed(reason: String) -> [Delivery] {
        isWriting = false
        handedSeq = durableSeq
        committedSeq = durableSeq
        rejections = []
        let deliveries = outbox.map { entry -> Delivery in
            switch entry {
            case .event(let event, let target, _):
                return .reply(.rejected(Self.unavailable(event.opId, reason)), target)
            case .reply(.repeated(.committed(let event)), let target) where event.seq > durableSeq:
                return .reply(.rejected(Self.unavailable(event.opId, reason)), target)
            case .reply(let outcome, let target):
                return .reply(outcome, target)
            }
        }
        outbox = []
        return deliveries
    }

    static func unavailable(_ opId: OperationID, _ reason: String) -> Rejection {
        Rejection(opId: opId, code: .unavailable, message: "not saved, nothing changed: \(reason)")
    }
}
