/// The kept window of committed events, each with its effect.
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
    /// The seq of the newest entry (the board's current seq), also when empty.
    private(set) var latestSeq: Int

    init(capacity: Int, latestSeq: Int) {
        entries = RingBuffer(capacity: capacity)
        motions = RingBuffer(capacity: capacity)
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

    /// Appends the next event.
    mutating func append(_ entry: HistoryEntry) {
        precondition(entry.event.seq == latestSeq + 1, "events are appended in seq order")
        latestSeq += 1
        let motion = Motion(entry.effect, firstPosition: firstPoolIndex + positions.count)
        for position in Motion.positions(of: entry.effect) { positions.append(position) }
        entries.append(entry)
        if let dropped = motions.append(motion) {
            // The oldest event left the window; its positions go with it.
            for _ in 0..<dropped.count where dropped.kind == .move || dropped.kind == .delete {
                _ = positions.removeFirst()
                firstPoolIndex += 1
            }
        }
    }

    /// Removes the newest entry (to undo it), if any.
    mutating func removeLast() -> HistoryEntry? {
        guard let entry = entries.removeLast(), let motion = motions.removeLast() else { return nil }
        for _ in 0..<motion.count where motion.kind == .move || motion.kind == .delete {
            _ = positions.removeLast()
        }
        latestSeq -= 1
        return entry
    }

    /// The events after `seq`, oldest first; nil when `seq` is outside the window.
    func events(after seq: Int) -> [CommittedEvent]? {
        guard reaches(seq) else { return nil }
        return (seq + 1 ..< latestSeq + 1).map { self[$0].event }
    }
}
