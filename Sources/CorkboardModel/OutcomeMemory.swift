/// The final outcomes of recent opIds, so a resent operation is answered with its first
/// outcome and never applied twice (spec §5).
///
/// Bounded: the oldest opIds are forgotten first once `capacity` are remembered. The
/// engine sizes it like the history window; a resend from further back than that is
/// something only the durable log can still answer.
struct OutcomeMemory {
    private var outcomes: [OperationID: (outcome: RememberedOutcome, stamp: Int)] = [:]
    /// Insertion order, for forgetting the oldest. The stamp tells a stale slot (for an
    /// opId forgotten and remembered again since) from the live one.
    private var order: RingBuffer<(opId: OperationID, stamp: Int)>
    private var nextStamp = 0

    init(capacity: Int) {
        order = RingBuffer(capacity: capacity)
    }

    subscript(opId: OperationID) -> RememberedOutcome? {
        outcomes[opId]?.outcome
    }

    mutating func remember(_ outcome: RememberedOutcome, for opId: OperationID) {
        nextStamp += 1
        outcomes[opId] = (outcome, nextStamp)
        if let dropped = order.append((opId, nextStamp)), outcomes[dropped.opId]?.stamp == dropped.stamp {
            outcomes[dropped.opId] = nil
        }
    }

    /// Forgets an opId whose outcome was undone (its event was reverted).
    mutating func forget(_ opId: OperationID) {
        outcomes[opId] = nil
    }
}
