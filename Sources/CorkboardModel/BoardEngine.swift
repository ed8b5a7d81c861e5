/// The server's board: the single sequencer's state for one board (docs/protocol.md#5-resolution).
///
/// The hub keeps one ``BoardEngine`` per active board and calls `apply` for each
/// operation in arrival order. The engine resolves it against the current board and
/// its history, assigns the next seq, and remembers the outcome by opId. It is a value:
/// no locks, no I/O; whoever owns it (the board's serial queue or actor) serialises it.
public struct BoardEngine: Sendable {
    /// The last 100,000 committed events are kept, fewer when they pass the byte budget
    /// (docs/protocol.md#1-the-model).
    public static let defaultHistoryCapacity = 100_000
    /// About how many bytes of events a board's history keeps (`Footprint`): 100,000 events
    /// of a few hundred bytes fit, while events of 60 KB keep about 1,000 of them.
    public static let defaultHistoryByteBudget = 64 << 20
    /// Noops and permanent rejections remembered per sender (`AnswerMemory`).
    public static let answersPerSender = 1_000

    var current: IndexedBoard
    var history: History
    var committedOpIds: CommittedOpIDs
    var answers: AnswerMemory
    /// Items the board may hold; an insert past it is rejected `invalid` (a server limit,
    /// not part of the model's rules). Nil: no limit.
    public var maximumItems: Int?
    /// Collections the board may hold; a `collection.add` past it is rejected `invalid`.
    public var maximumCollections: Int?

    /// A board at `seq` with no history before it (a new board has seq 0).
    ///
    /// `historyCapacity` is how many recent events are kept for base seqs and resume, and
    /// `historyByteBudget` about how many bytes of them (the window is the shorter of the
    /// two). The opIds of the last `historyCapacity` commits are remembered for resends
    /// whatever their bytes, and as many noops and permanent rejections (fewer per sender).
    public init(
        board: Board, seq: Int = 0, historyCapacity: Int = defaultHistoryCapacity,
        historyByteBudget: Int = defaultHistoryByteBudget
    ) throws(BoardError) {
        // Stored boards load as they were written; ids from outside are checked where they enter.
        let problems = board.validationProblems(acceptingStoredIDs: true)
        guard problems.isEmpty else { throw BoardError(problems.joined(separator: "; ")) }
        guard seq >= 0 else { throw BoardError("seq must not be negative") }
        guard seq <= Limits.maximumSeq else { throw BoardError("seq \(seq) is past the last seq a board reaches (\(Limits.maximumSeq))") }
        guard historyCapacity > 0 else { throw BoardError("the history must keep at least one event") }
        guard historyByteBudget > 0 else { throw BoardError("the history's byte budget must be positive") }
        current = IndexedBoard(board)
        history = History(capacity: historyCapacity, byteBudget: historyByteBudget, latestSeq: seq)
        committedOpIds = CommittedOpIDs(capacity: historyCapacity)
        answers = AnswerMemory(perSender: min(Self.answersPerSender, historyCapacity), total: historyCapacity)
    }

    /// Restores a board from a snapshot at `seq` and the committed events after it, in
    /// seq order (what the store keeps). The window then reaches back to the snapshot,
    /// or `historyCapacity` events, whichever is shorter.
    public init(
        snapshot: Board, seq: Int, replaying events: some Sequence<CommittedEvent>,
        historyCapacity: Int = defaultHistoryCapacity, historyByteBudget: Int = defaultHistoryByteBudget
    ) throws(BoardError) {
        try self.init(board: snapshot, seq: seq, historyCapacity: historyCapacity, historyByteBudget: historyByteBudget)
        for event in events { try append(event) }
    }

    /// Why a board at `Limits.maximumSeq` takes nothing more.
    static let lastSeqMessage = "the board is at its last seq (\(Limits.maximumSeq)) and takes no more operations"

    // MARK: Reading

    /// The seq of the last committed event.
    public var seq: Int { history.latestSeq }

    /// The commit time (`at`) of the last event, when the history holds it and it has one:
    /// the hub stamps the next event no earlier, so `at` never goes back along a board's seqs.
    public var latestCommitTime: Int? {
        history.count > 0 ? history[seq].event.at : nil
    }

    /// The current board, as a plain value (for `welcome`, snapshots, `GET`).
    public var board: Board { current.board }

    public var isLocked: Bool { current.locked }

    /// The oldest seq the board can be reconstructed at; base seqs older than this get
    /// the past-the-window rules (docs/protocol.md#5-resolution), and resume from before it
    /// is impossible.
    public var oldestReachableSeq: Int { history.oldestSeq }

    /// The board as it was at `seq`, or nil outside `oldestReachableSeq...seq`.
    /// Costs a copy of the board plus one undo per event since.
    public func board(asOf seq: Int) -> Board? {
        guard history.reaches(seq) else { return nil }
        var past = current
        var undone = history.latestSeq
        while undone > seq {
            past.undo(history[undone])
            undone -= 1
        }
        return past.board
    }

    /// The committed events after `seq`, oldest first (resume, `GET …/ops?since=`);
    /// nil when `seq` is outside the kept window.
    public func events(after seq: Int) -> [CommittedEvent]? {
        history.events(after: seq)
    }

    /// The committed events in `seq + 1 ... last`, oldest first: a resume replayed in
    /// pieces, or events up to the durable seq while later ones are still being written.
    /// Nil when `seq` is outside the kept window or `last` is not in `seq...self.seq`.
    public func events(after seq: Int, through last: Int) -> [CommittedEvent]? {
        guard history.reaches(seq), last >= seq, last <= history.latestSeq else { return nil }
        return (seq + 1..<last + 1).map { history[$0].event }
    }

    /// The first outcome remembered for this opId, if any. A commit whose event has left
    /// the history (its bytes) is remembered by its seq alone, and answered as a noop at
    /// that seq: nothing to apply, the event is in every snapshot since.
    public func rememberedOutcome(for opId: OperationID) -> RememberedOutcome? {
        if let seq = committedOpIds[opId] {
            return history.reaches(seq - 1) ? .committed(history[seq].event) : .noop(Noop(opId: opId, seq: seq))
        }
        return answers[opId]
    }

    /// About how many bytes the history holds now (`Footprint`), and how many of them are
    /// in events after the protected seq.
    public var historyBytes: (all: Int, protected: Int) { (history.bytes, history.protectedBytes) }

    /// The history's byte budget.
    public var historyByteBudget: Int { history.byteBudget }

    // MARK: Changing

    /// Resolves one operation from `client` (docs/protocol.md#5-resolution) and, when it commits,
    /// applies it and assigns it the next seq. `leases` is the hub's table of items in
    /// live drags; `stamp`, when and by whom, is copied into the event it commits (the hub
    /// always gives one; nil leaves the event's `at` and `by` out). Never throws: every
    /// failure is a `rejected` outcome.
    public mutating func apply(
        _ request: OperationRequest, client: ClientID, role: Role, leases: LeaseTable = .empty, stamp: CommitStamp? = nil
    ) -> Outcome {
        guard Limits.isValidID(request.opId) else {
            // Not remembered: an opId this malformed cannot name an operation.
            return .rejected(Rejection(opId: request.opId, code: .invalid, message: "opId must be \(Limits.idRule)"))
        }
        if let remembered = rememberedOutcome(for: request.opId) { return .repeated(remembered) }
        do throws(Refusal) {
            // `seq + 1` below must stay a seq every JSON reader holds exactly.
            guard seq < Limits.maximumSeq else { throw Refusal.invalid(Self.lastSeqMessage) }
            switch try resolve(request, client: client, role: role, leases: leases) {
            case .noop:
                let noop = Noop(opId: request.opId, seq: seq)
                answers.remember(.noop(noop), for: request.opId, sender: client)
                return .noop(noop)
            case .change(let operation, let adjusted, let leaseHits):
                let event = CommittedEvent(
                    seq: seq + 1, opId: request.opId, client: client, op: operation, adjusted: adjusted, stamp: stamp)
                do {
                    try append(event)
                } catch {
                    // The resolver only produces operations that fit the board; reaching
                    // this is a bug, reported without changing anything.
                    assertionFailure("resolved operation did not apply: \(error)")
                    return .rejected(Rejection(opId: request.opId, code: .invalid, message: "internal error: \(error)"))
                }
                return .committed(Commit(event: event, leaseHits: leaseHits))
            }
        } catch {
            let rejection = Rejection(opId: request.opId, code: error.code, message: error.message)
            if error.code.isPermanent { answers.remember(.rejected(rejection), for: request.opId, sender: client) }
            return .rejected(rejection)
        }
    }

    /// Applies an already committed event: replaying the log on restore, or following
    /// another sequencer. Its seq must be the next one.
    public mutating func append(_ event: CommittedEvent) throws(BoardError) {
        guard seq < Limits.maximumSeq else { throw BoardError(Self.lastSeqMessage) }
        guard event.seq == seq + 1 else { throw BoardError("expected event \(seq + 1), got \(event.seq)") }
        let effect = try current.apply(event.op)
        history.append(HistoryEntry(event: event, effect: effect))
        // A committed opId is final: an answer remembered for it before (a transient one
        // is never remembered, but a restored one may be) gives way.
        answers.forget(event.opId)
        committedOpIds.append(event.opId, seq: event.seq)
    }

    /// Keeps every event after `seq` in the history whatever its byte budget: the events
    /// not durable yet, which `revert(after:)` must be able to undo. The owner moves it
    /// forward as events become durable; until it is first called nothing is protected.
    public mutating func protectHistory(after seq: Int) {
        history.protect(after: seq)
    }

    /// Remembers a permanent rejection decided before (restored from the store), so a
    /// resend of its opId gets it again. Transient rejections are not remembered.
    public mutating func remember(_ rejection: Rejection) {
        guard rejection.code.isPermanent, rememberedOutcome(for: rejection.opId) == nil else { return }
        answers.remember(.rejected(rejection), for: rejection.opId, sender: nil)
    }

    /// Forgets the answer to an opId (a noop or a rejection) that could not be made
    /// durable and was told `unavailable` instead: the opId is resolved anew when resent.
    public mutating func forgetAnswer(to opId: OperationID) {
        answers.forget(opId)
    }

    /// Remembers a noop answered before (restored from the store after a restart), so a
    /// repeat of its opId is that noop again, not resolved anew against a changed board.
    public mutating func remember(_ noop: Noop) {
        guard rememberedOutcome(for: noop.opId) == nil else { return }
        answers.remember(.noop(noop), for: noop.opId, sender: nil)
    }

    /// Remembers the opId of an event committed at `seq` that is older than the history
    /// (restored from a store, which keeps the opIds of the events it folded): a resend of it
    /// is answered as a noop at that seq instead of being applied again. Oldest first, before
    /// the history has any event.
    public mutating func remember(committed opId: OperationID, seq: Int) {
        guard seq <= history.oldestSeq, history.count == 0, committedOpIds[opId] == nil else { return }
        committedOpIds.append(opId, seq: seq)
    }

    /// Undoes every event after `seq`, newest first, and forgets their opIds so they
    /// can be sent again: what the hub does when a batch could not be made durable
    /// (`unavailable`: nothing changed). Returns the undone events, oldest first.
    @discardableResult
    public mutating func revert(after seq: Int) throws(BoardError) -> [CommittedEvent] {
        guard history.reaches(seq) else { throw BoardError("seq \(seq) is outside the kept history") }
        var undone: [CommittedEvent] = []
        while history.latestSeq > seq, let entry = history.removeLast() {
            current.undo(entry)
            committedOpIds.removeLast()
            undone.append(entry.event)
        }
        return undone.reversed()
    }
}
