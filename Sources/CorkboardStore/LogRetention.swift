import CorkboardModel

/// How much of a board's log every store keeps (docs/protocol.md#1-the-model): the last
/// `retained` events at least, and about `byteBudget` bytes of them, whichever is less.
///
/// By count: the log may grow to `retained + slack` events, and the append that passes that
/// folds the oldest into the snapshot, leaving exactly `retained`. So a fold happens once
/// every `slack` events and costs one snapshot rewrite plus `slack` event applications.
/// `slack` is capped (1,024) rather than being `retained` itself (the classic 2× rule), so
/// that one fold never stalls the store's writer, which every board shares, for long.
///
/// By bytes: once `byteSlack` bytes were appended to a board since its log was last
/// measured, the store measures it and folds the oldest events until what is left is
/// within `byteBudget` (the same budget as the hub's history, so a restart loads no more
/// than the room would have kept). Durable stores count events as `storedBytes`, the
/// memory store by their `footprint`.
///
/// `LogFolding` applies these rules; SQLite, PostgreSQL and the memory store all fold through it.
public struct LogRetention: Sendable, Hashable {
    public let retained: Int
    public let slack: Int
    public let byteBudget: Int
    public let byteSlack: Int

    public init(retained: Int, byteBudget: Int = BoardEngine.defaultHistoryByteBudget) {
        precondition(retained > 0, "a store keeps at least one event")
        precondition(byteBudget > 0, "a store keeps at least one byte of events")
        self.retained = retained
        slack = max(1, min(retained, 1_024))
        self.byteBudget = byteBudget
        byteSlack = max(1, byteBudget / 8)
    }

    /// The most events (and remembered answers) a board keeps between folds.
    public var bound: Int { retained + slack }

    /// The seq through which the log should be folded now by its count, if it should.
    public func foldThrough(seq: Int, snapshotSeq: Int) -> Int? {
        seq - snapshotSeq > bound ? seq - retained : nil
    }

    /// The seq through which the log should be folded by its bytes, given its events' seqs
    /// and stored sizes newest first: the newest event that no longer fits in the budget.
    public func foldThrough(newestFirst sizes: some Sequence<(seq: Int, bytes: Int)>) -> Int? {
        var kept = 0
        for (seq, bytes) in sizes {
            kept += bytes
            if kept > byteBudget { return seq }
        }
        return nil
    }

    /// What an event counts as against `byteBudget`: its operation's JSON as stored, its
    /// opId, and a fixed share for the rest of its row.
    /// `authorBytes`: the event's `by`, which a client's name or token chose (issue #31): counted
    /// like the operation, so a long one cannot make a log of events that each count small.
    public static func storedBytes(opJSONBytes: Int, opId: OperationID, authorBytes: Int) -> Int {
        opJSONBytes + opId.utf8.count + authorBytes + rowOverhead
    }

    /// The fixed share of an event's row (seq, client, flags, index entries).
    public static let rowOverhead = 64
}
