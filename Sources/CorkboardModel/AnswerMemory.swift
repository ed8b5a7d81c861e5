/// The answers told to one sender alone that a resend must repeat: noops and permanent
/// rejections (docs/protocol.md#resending-an-opid).
///
/// These cost a client nothing to provoke (a viewer's forbidden `lock`, a move of a missing
/// item), so they are bounded twice, and never share room with committed opIds
/// (`CommittedOpIDs`): each sender keeps its newest `perSender` answers, so a flooding
/// connection forgets its own answers first, and the board keeps its newest `total`, so
/// many flooding connections together cost a bounded amount of memory. Answers restored
/// from the store have no sender and count against `total` only.
struct AnswerMemory {
    private struct Entry {
        var answer: RememberedOutcome
        var sender: ClientID?
        var stamp: Int
    }

    private typealias Slot = (opId: OperationID, stamp: Int)

    let perSender: Int
    private var entries: [OperationID: Entry] = [:]
    /// Remembering order over the whole board, and per sender. The stamp tells a live slot
    /// from a stale one (an opId forgotten, or answered again, since).
    private var order: RingBuffer<Slot>
    private var bySender: [ClientID: RingBuffer<Slot>] = [:]
    private var nextStamp = 0

    init(perSender: Int, total: Int) {
        self.perSender = perSender
        order = RingBuffer(capacity: total)
    }

    subscript(opId: OperationID) -> RememberedOutcome? {
        entries[opId]?.answer
    }

    mutating func remember(_ answer: RememberedOutcome, for opId: OperationID, sender: ClientID?) {
        forget(opId)
        nextStamp += 1
        entries[opId] = Entry(answer: answer, sender: sender, stamp: nextStamp)
        if let dropped = order.append((opId, nextStamp)) { drop(dropped) }
        guard let sender else { return }
        var own = bySender[sender] ?? RingBuffer(capacity: perSender)
        let dropped = own.append((opId, nextStamp))
        bySender[sender] = own
        if let dropped { drop(dropped) }
    }

    /// Forgets the answer to an opId (it could not be made durable): resolved anew when resent.
    mutating func forget(_ opId: OperationID) {
        guard let entry = entries.removeValue(forKey: opId) else { return }
        releaseSlot(of: entry)
    }

    /// Forgets a slot's answer if the slot is still the live one for its opId.
    private mutating func drop(_ slot: Slot) {
        guard let entry = entries[slot.opId], entry.stamp == slot.stamp else { return }
        entries[slot.opId] = nil
        releaseSlot(of: entry)
    }

    /// Takes a forgotten answer's sender off the books once none of its answers is live,
    /// so senders that came and went (every connection is one) leave nothing behind.
    private mutating func releaseSlot(of entry: Entry) {
        guard let sender = entry.sender, var own = bySender[sender] else { return }
        while let oldest = own.first, entries[oldest.opId]?.stamp != oldest.stamp { _ = own.removeFirst() }
        bySender[sender] = own.isEmpty ? nil : own
    }
}
