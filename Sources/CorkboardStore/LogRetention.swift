/// How much of a board's log a durable store keeps (spec §1: at least the last `retained`
/// events): the log may grow to `retained + slack` events, and the append that passes that
/// folds the oldest into the snapshot, leaving exactly `retained`. So a fold happens once
/// every `slack` events and costs one snapshot rewrite plus `slack` event applications.
/// `slack` is capped (1,024) rather than being `retained` itself (the classic 2× rule), so
/// that one fold never stalls the store's writer, which every board shares, for long.
/// SQLite and PostgreSQL keep their logs by the same rule.
public struct LogRetention: Sendable, Hashable {
    public let retained: Int
    public let slack: Int

    public init(retained: Int) {
        precondition(retained > 0, "a store keeps at least one event")
        self.retained = retained
        slack = max(1, min(retained, 1_024))
    }

    /// The most events (and remembered answers) a board keeps between folds.
    public var bound: Int { retained + slack }

    /// The seq through which the log should be folded now, if it should.
    public func foldThrough(seq: Int, snapshotSeq: Int) -> Int? {
        seq - snapshotSeq > bound ? seq - retained : nil
    }
}
