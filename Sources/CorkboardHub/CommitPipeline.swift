import CorkboardModel
import CorkboardStore
import Dispatch

/// Who hears the outcome of an operation: a WebSocket member of the room, or an HTTP request.
enum ReplyTarget: Sendable {
    case member(MemberKey)
    /// The HTTP caller hears the outcome once it may be told (a commit once it is durable), or
    /// that the board is gone when it was deleted underneath the operation.
    case http(@Sendable (Result<Outcome, HubError>) -> Void)
    /// Nobody here: an event another node committed, which this room only follows.
    case elsewhere
}

/// What it takes to resolve an operation again: when another node committed first (the
/// store answered `.conflict`), the room catches up and resolves it anew on the new board.
struct Resolution: Sendable {
    var request: OperationRequest
    var client: ClientID
    var author: String
    var role: Role
    var target: ReplyTarget
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
/// Answers that an opId replay must repeat after a restart (a noop, a permanent rejection)
/// are written too, and are told only once their batch is durable: a client that heard
/// "noop" can resend that opId across a crash and hear "noop" again.
///
/// A state machine with no I/O: the room feeds it outcomes and store results, and carries out
/// the deliveries it returns.
///
/// A class, held by its `BoardRoom` with `let` and, like all of the room's state, used only
/// on the room's queue (or by one test): its state is private, changed only through its methods.
final class CommitPipeline {
    private enum Entry {
        case event(CommittedEvent, ReplyTarget, committedAt: UInt64, resolution: Resolution?)
        /// `batch`: the number of the batch that writes this answer, if it is written.
        case reply(Outcome, ReplyTarget, batch: Int?, resolution: Resolution?)
    }

    private var outbox: [Entry] = []
    /// Entries that have ever entered the outbox, and left it (told, or handed back to be
    /// resolved again): whatever waits for what is queued now to be told waits until
    /// `outboxLeft` reaches `outboxEntered` as it is now (`BoardRoom.whenDelivered`).
    private(set) var outboxEntered = 0
    private(set) var outboxLeft = 0
    /// The last seq the store has made durable: what members and readers may see.
    private(set) var durableSeq: Int
    /// The last seq handed to the store (durable or being written).
    private var handedSeq: Int
    /// The last seq committed in the engine.
    private var committedSeq: Int
    /// Permanent rejections and noops decided since the last batch was handed over.
    private var rejections: [Rejection] = []
    private var noops: [Noop] = []
    /// Batches are numbered from 1: the next to be handed over, and the last made durable.
    private var nextBatchNumber = 1
    private var durableBatchNumber = 0
    private(set) var isWriting = false

    init(durableSeq: Int) {
        self.durableSeq = durableSeq
        handedSeq = durableSeq
        committedSeq = durableSeq
    }

    /// Empty again, at `durableSeq`, as a new pipeline is (the board was loaded again).
    func restart(durableSeq: Int) {
        emptyOutbox()
        self.durableSeq = durableSeq
        handedSeq = durableSeq
        committedSeq = durableSeq
        rejections = []
        noops = []
        nextBatchNumber = 1
        durableBatchNumber = 0
        isWriting = false
    }

    /// True while events are committed in the engine but not yet durable.
    var hasUndurableEvents: Bool { committedSeq > durableSeq }

    /// A new event from the engine, to be written and then broadcast.
    func add(
        _ event: CommittedEvent, from target: ReplyTarget, resolution: Resolution? = nil,
        at committedAt: UInt64 = DispatchTime.now().uptimeNanoseconds
    ) {
        precondition(event.seq == committedSeq + 1, "events enter the pipeline in seq order")
        committedSeq = event.seq
        outbox.append(.event(event, target, committedAt: committedAt, resolution: resolution))
        outboxEntered += 1
    }

    /// An event another node committed, read from the store while nothing of this room's
    /// own is on its way there: it is durable already.
    func follow(_ event: CommittedEvent) {
        precondition(isIdle && event.seq == durableSeq + 1, "followed events come in seq order between batches")
        durableSeq = event.seq
        handedSeq = event.seq
        committedSeq = event.seq
    }

    /// Nothing is being written or waiting to be.
    var isIdle: Bool { !isWriting && outbox.isEmpty && rejections.isEmpty && noops.isEmpty }

    /// An answer to the sender alone. Returns it when it can be sent at once (it is not
    /// written and nothing is waiting to become durable), otherwise queues it.
    func answer(_ outcome: Outcome, to target: ReplyTarget, resolution: Resolution? = nil) -> Delivery? {
        var batch: Int?
        switch outcome {
        case .rejected(let rejection) where rejection.code.isPermanent && Limits.isValidID(rejection.opId):
            rejections.append(rejection)
            batch = nextBatchNumber
        case .noop(let noop):
            noops.append(noop)
            batch = nextBatchNumber
        default:
            break
        }
        guard outbox.isEmpty && batch == nil else {
            outbox.append(.reply(outcome, target, batch: batch, resolution: resolution))
            outboxEntered += 1
            return nil
        }
        return .reply(outcome, target)
    }

    /// The next batch for the store, when none is being written and there is something to
    /// write, extending the board of `epoch`.
    func nextBatch(board: String, epoch: String? = nil) -> CommitBatch? {
        guard !isWriting, handedSeq < committedSeq || !rejections.isEmpty || !noops.isEmpty else { return nil }
        var events: [CommittedEvent] = []
        for entry in outbox {
            if case .event(let event, _, _, _) = entry, event.seq > handedSeq { events.append(event) }
        }
        let batch = CommitBatch(board: board, expectedSeq: handedSeq, events: events, rejections: rejections, noops: noops, epoch: epoch)
        rejections = []
        noops = []
        handedSeq = committedSeq
        nextBatchNumber += 1
        isWriting = true
        return batch
    }

    /// The batch is durable: everything up to it goes out, in arrival order.
    func batchSucceeded() -> [Delivery] {
        isWriting = false
        durableSeq = handedSeq
        durableBatchNumber = nextBatchNumber - 1
        var deliveries: [Delivery] = []
        var released = 0
        scan: for entry in outbox {
            switch entry {
            case .event(let event, let target, let committedAt, _):
                if event.seq > durableSeq { break scan }
                deliveries.append(.broadcast(event, target, committedAt: committedAt))
            case .reply(let outcome, let target, let batch, _):
                if let batch, batch > durableBatchNumber { break scan }
                deliveries.append(.reply(outcome, target))
            }
            released += 1
        }
        outbox.removeFirst(released)
        outboxLeft += released
        return deliveries
    }

    /// The batch could not be made durable. The room reverts the engine to `durableSeq` and
    /// makes it forget the answers in `forgotten`; every event not yet durable, every answer
    /// not yet written and every repeat of an undone event is answered `unavailable`
    /// (nothing changed, the opId may be sent again); other answers go out as they were.
    func batchFailed(reason: String) -> (deliveries: [Delivery], forgotten: [OperationID]) {
        forgetUndurable()
        var forgotten: [OperationID] = []
        let deliveries = outbox.map { entry -> Delivery in
            switch entry {
            case .event(let event, let target, _, _):
                return .reply(.rejected(Self.unavailable(event.opId, reason)), target)
            case .reply(.repeated(.committed(let event)), let target, _, _) where event.seq > durableSeq:
                return .reply(.rejected(Self.unavailable(event.opId, reason)), target)
            case .reply(let outcome, let target, let batch?, _) where batch > durableBatchNumber:
                guard let opId = outcome.writtenAnswerOpId else { return .reply(outcome, target) }
                forgotten.append(opId)
                return .reply(.rejected(Self.unavailable(opId, reason)), target)
            case .reply(let outcome, let target, _, _):
                return .reply(outcome, target)
            }
        }
        emptyOutbox()
        return (deliveries, forgotten)
    }

    /// Another node extended the board first: nothing of the batch was written. Every
    /// operation not yet told is to be resolved again, in arrival order, once the room has
    /// caught up (the room reverts the engine to `durableSeq` and makes it forget the
    /// answers in `forgotten`, which were decided on a board that never was). Entries that
    /// cannot be resolved again go out as they are, after the resolutions.
    func batchConflicted() -> (resolutions: [Resolution], deliveries: [Delivery], forgotten: [OperationID]) {
        forgetUndurable()
        var resolutions: [Resolution] = []
        var deliveries: [Delivery] = []
        var forgotten: [OperationID] = []
        for entry in outbox {
            switch entry {
            case .event(_, _, _, let resolution?), .reply(_, _, _, let resolution?):
                if case .reply(let outcome, _, let batch?, _) = entry, batch > durableBatchNumber,
                    let opId = outcome.writtenAnswerOpId
                {
                    forgotten.append(opId)
                }
                resolutions.append(resolution)
            case .event(let event, let target, _, nil):
                deliveries.append(.reply(.rejected(Self.unavailable(event.opId, "another node committed first")), target))
            case .reply(let outcome, let target, _, nil):
                deliveries.append(.reply(outcome, target))
            }
        }
        emptyOutbox()
        return (resolutions, deliveries, forgotten)
    }

    /// Every entry has left: told, or handed back to be resolved again.
    private func emptyOutbox() {
        outboxLeft += outbox.count
        outbox = []
    }

    /// Back to the durable seq: nothing being written, nothing decided since waiting to be.
    private func forgetUndurable() {
        isWriting = false
        handedSeq = durableSeq
        committedSeq = durableSeq
        rejections = []
        noops = []
    }

    static func unavailable(_ opId: OperationID, _ reason: String) -> Rejection {
        Rejection(opId: opId, code: .unavailable, message: "not saved, nothing changed: \(reason)")
    }
}

private extension Outcome {
    /// The opId of an answer the pipeline writes (a noop or a rejection).
    var writtenAnswerOpId: OperationID? {
        switch self {
        case .noop(let noop): noop.opId
        case .rejected(let rejection): rejection.opId
        default: nil
        }
    }
}
