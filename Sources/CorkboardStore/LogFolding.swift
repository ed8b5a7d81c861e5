import Synchronization

/// When and how far a store folds a board's log into its snapshot: `LogRetention`'s two
/// rules, decided here once for every store (memory, SQLite, PostgreSQL), so that they keep
/// their logs alike and a new store only has to carry the decision out.
///
/// After each append a store asks `afterAppend`, which answers with a `Step`:
/// - `.keep`: nothing to do;
/// - `.fold(through:)`: the count passed `retention.bound`; fold through that seq;
/// - `.measure(foldingByCountThrough:)`: `byteSlack` bytes were appended since the log was last
///   measured; the store reads its events' sizes newest first and asks `foldThrough(byCount:…)`.
///
/// A fold keeps the opIds of the events it folds away whose seq is after `opIdsForgottenThrough`,
/// forgets those at or before it, and remembered answers are trimmed by `answersToForget`.
/// The byte tally lives in memory: after a restart the log is measured after `byteSlack` more
/// bytes; each node sharing a store measures after its own share of them.
public final class LogFolding: Sendable {
    public enum Step: Sendable, Hashable {
        case keep
        case fold(through: Int)
        case measure(foldingByCountThrough: Int?)
    }

    public let retention: LogRetention
    /// Bytes appended per board since its log was last measured.
    private let unmeasured = Mutex<[String: Int]>([:])

    public init(_ retention: LogRetention) {
        self.retention = retention
    }

    /// What to do after an append of `appendedBytes` took `board` to `seq`, its snapshot being
    /// at `snapshotSeq`. `canMeasure: false` (a fold of the board is already running) only
    /// tallies the bytes, to be measured after a later append.
    public func afterAppend(board: String, seq: Int, snapshotSeq: Int, appendedBytes: Int, canMeasure: Bool = true) -> Step {
        let byCount = retention.foldThrough(seq: seq, snapshotSeq: snapshotSeq)
        let measure = unmeasured.withLock { tally in
            let total = tally[board, default: 0] + appendedBytes
            guard canMeasure, total > retention.byteSlack else {
                tally[board] = total
                return false
            }
            tally[board] = nil
            return true
        }
        if measure { return .measure(foldingByCountThrough: byCount) }
        return byCount.map { .fold(through: $0) } ?? .keep
    }

    /// After measuring: the seq through which to fold, by count or by bytes whichever goes
    /// further, given the log's events' seqs and sizes newest first; nil when nothing.
    public func foldThrough(byCount: Int?, snapshotSeq: Int, newestFirst sizes: some Sequence<(seq: Int, bytes: Int)>) -> Int? {
        let through = [byCount, retention.foldThrough(newestFirst: sizes)].compactMap { $0 }.max()
        return through.flatMap { $0 > snapshotSeq ? $0 : nil }
    }

    /// Folded opIds at or before this seq are forgotten when the board is at `seq`: a store
    /// keeps those of its last `retained` seqs.
    public func opIdsForgottenThrough(seq: Int) -> Int {
        seq - retention.retained
    }

    /// How many of the oldest remembered answers (rejections and noops) a board holding
    /// `count` of them forgets: none up to the bound, down to `retained` past it. (Answers
    /// decided at or before a fold's seq are forgotten with the fold as well.)
    public func answersToForget(count: Int) -> Int {
        count > retention.bound ? count - retention.retained : 0
    }
}
