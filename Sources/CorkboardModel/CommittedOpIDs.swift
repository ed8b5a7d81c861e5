/// The seqs of the last `capacity` committed opIds, so a resent committed operation is
/// never applied twice (docs/protocol.md#resending-an-opid).
///
/// Kept apart from the answers told to one sender (`AnswerMemory`), and filled only by
/// commits: nothing a client can send without committing (a flood of rejected or
/// forbidden operations) pushes a committed opId out. Only the seq is kept, not the event,
/// so the memory reaches as far back in events as the history's count window even when
/// the history itself is shorter because its events are big (`History.byteBudget`).
struct CommittedOpIDs {
    private var seqs: [OperationID: Int] = [:]
    /// Commit order, for forgetting the oldest and for undoing the newest. The seq tells
    /// whether a slot still owns its opId's entry (a log written before opIds were kept
    /// apart may hold one opId twice).
    private var order: RingBuffer<(opId: OperationID, seq: Int)>

    init(capacity: Int) {
        order = RingBuffer(capacity: capacity)
    }

    subscript(opId: OperationID) -> Int? {
        seqs[opId]
    }

    /// Remembers the opId of the next committed event.
    mutating func append(_ opId: OperationID, seq: Int) {
        seqs[opId] = seq
        if let dropped = order.append((opId, seq)) { forget(dropped) }
    }

    /// Forgets the newest commit (its event was reverted): its opId may be sent again.
    mutating func removeLast() {
        if let newest = order.removeLast() { forget(newest) }
    }

    private mutating func forget(_ slot: (opId: OperationID, seq: Int)) {
        if seqs[slot.opId] == slot.seq { seqs[slot.opId] = nil }
    }
}
