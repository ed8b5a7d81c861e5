/// The kept window of committed events, each with its effect.
///
/// Bounded twice: at most `capacity` events, and about `byteBudget` bytes of them
/// (`Footprint`), so a board of small events keeps its full count and one of big events a
/// shorter window instead of gigabytes. Events after `protectedSeq` are never dropped for
/// bytes: they are not durable yet, and a failed write must still be able to undo them.
///
/// The board at any seq `b` in `oldestSeq...latestSeq` is the current board with the
/// effects after `b` undone, newest first. Undoing a move costs a couple of short
/// array edits, so this needs no copy of the board per seq. For the hot questions
/// ("which item was at offset k at `b`?") the history also keeps each effect's
/// positions as plain data (`Motion`), so walking it does no reference counting.
struct History {
    private var entries: RingBuffer<HistoryEntry>
    /// One per entry, same order.
    private var motions: RingBuffer<Motion>
    /// The positions the motions refer to, oldest first. `positions[0]` has the
    /// absolute index `firstPoolIndex`.
    private var positions = RingBuffer<Position>(capacity: .max)
    private var firstPoolIndex = 0
    /// One per entry, same order: what each is counted as against the byte budget.
    private var footprints: RingBuffer<Int>
    /// The seq of the newest entry (the board's current seq), also when empty.
    private(set) var latestSeq: Int
    let byteBudget: Int
    /// The footprints of the kept entries, added up.
    private(set) var bytes = 0
    /// Entries after this seq stay whatever their bytes (`Int.max`: none is protected).
    private(set) var protectedSeq = Int.max
    /// The footprints of the entries after `protectedSeq`, added up.
    private(set) var protectedBytes = 0

    init(capacity: Int, byteBudget: Int = .max, latestSeq: Int) {
        entries = RingBuffer(capacity: capacity)
        motions = RingBuffer(capacity: capacity)
        footprints = RingBuffer(capacity: capacity)
        self.byteBudget = byteBudget
        self.latestSeq = latestSeq
    }

    var capacity: Int { entries.capacity }
    var count: Int { entries.count }

    /// The oldest seq whose board can be reconstructed.
    var oldestSeq: Int { latestSeq - entries.count }

    /// True when the board as of `seq` can be reconstructed.
    func reaches(_ seq: Int) -> Bool {
        seq >= oldestSeq && seq <= latestSeq
    }

    /// The entry of the event with this seq, which must be in `oldestSeq + 1 ... latestSeq`.
    subscript(seq: Int) -> HistoryEntry {
        entries[seq - oldestSeq - 1]
    }

    /// The motion of the event with this seq (same range as the subscript).
    func motion(_ seq: Int) -> Motion {
        motions[seq - oldestSeq - 1]
    }

    /// A position from the pool, by the absolute index a motion gives.
    func position(_ absoluteIndex: Int) -> Position {
        positions[absoluteIndex - firstPoolIndex]
    }

    /// Appends the next event, then drops the oldest while over the byte budget.
    mutating func append(_ entry: HistoryEntry) {
        precondition(entry.event.seq == latestSeq + 1, "events are appended in seq order")
        if entries.count == entries.capacity { dropOldest() }
        latestSeq += 1
        let footprint = Footprint.of(entry)
        motions.append(Motion(entry.effect, firstPosition: firstPoolIndex + positions.count))
        for position in Motion.positions(of: entry.effect) { positions.append(position) }
        entries.append(entry)
        footprints.append(footprint)
        bytes += footprint
        if latestSeq > protectedSeq { protectedBytes += footprint }
        trimToBudget()
    }

    /// Keeps every entry after `seq` whatever the byte budget; the ones before it may go.
    /// Costs one step per entry after `seq` (the events not durable yet: a few batches).
    mutating func protect(after seq: Int) {
        protectedSeq = seq
        protectedBytes = 0
        if seq < latestSeq {
            for kept in max(seq, oldestSeq) + 1...latestSeq { protectedBytes += footprints[kept - oldestSeq - 1] }
        }
        trimToBudget()
    }

    /// Removes the newest entry (to undo it), if any.
    mutating func removeLast() -> HistoryEntry? {
        guard let entry = entries.removeLast(), let motion = motions.removeLast(), let footprint = footprints.removeLast() else {
            return nil
        }
        for _ in 0..<motion.count where motion.kind == .move || motion.kind == .delete || motion.kind == .removeCollection {
            _ = positions.removeLast()
        }
        bytes -= footprint
        if latestSeq > protectedSeq { protectedBytes -= footprint }
        latestSeq -= 1
        return entry
    }

    /// Drops the oldest entries while over the byte budget, down to the protected ones and
    /// never the newest (a board always reaches one event back).
    private mutating func trimToBudget() {
        while bytes > byteBudget, entries.count > 1, oldestSeq + 1 <= protectedSeq {
            dropOldest()
        }
    }

    private mutating func dropOldest() {
        guard entries.removeFirst() != nil, let motion = motions.removeFirst(), let footprint = footprints.removeFirst() else {
            return
        }
        bytes -= footprint
        // The oldest event left the window; its positions go with it.
        for _ in 0..<motion.count where motion.kind == .move || motion.kind == .delete || motion.kind == .removeCollection {
            _ = positions.removeFirst()
            firstPoolIndex += 1
        }
    }

    /// The events after `seq`, oldest first; nil when `seq` is outside the window.
    func events(after seq: Int) -> [CommittedEvent]? {
        guard reaches(seq) else { return nil }
        return (seq + 1..<latestSeq + 1).map { self[$0].event }
    }
}
