/// Cross-board group commit on the writer: which appends go to PostgreSQL together.
///
/// Each statement group on the writer is one transaction, and a transaction's commit waits
/// for its WAL flush (an fsync with `synchronous_commit = on`). Sent one board at a time,
/// appends are bounded by the database's fsync rate however many boards are active (100
/// boards with one client each committed 0.29× what one hot board did). Instead, one round
/// is in flight at a time, and the appends that arrive meanwhile wait here: the next round
/// takes all of them (up to `limit`), one transaction and one flush for every board in it.
/// An append that arrives while nothing is in flight goes at once, alone: group commit
/// costs a quiet board no wait.
///
/// A value that takes events and returns the round to send (as `GroupCommit` does for
/// SQLite); the store sends it and reports the answer. Generic so that tests drive it with
/// plain values.
struct AppendRounds<Append> {
    /// The most appends in one round: a round holds its boards' row locks until it commits,
    /// and the other nodes' appends to those boards wait for it.
    let limit: Int
    private var waiting: [Append] = []
    private(set) var isSending = false

    init(limit: Int) {
        precondition(limit > 0, "a round holds at least one append")
        self.limit = limit
    }

    var waitingCount: Int { waiting.count }

    /// Queues `append`; returns the round to send now when none is in flight.
    mutating func add(_ append: Append) -> [Append]? {
        waiting.append(append)
        return isSending ? nil : nextRound()
    }

    /// The round in flight was answered. `again` are appends of it that were not written
    /// because another statement of the round failed (the transaction rolled back with it):
    /// they go first in the next round, ahead of those that arrived meanwhile. Returns the
    /// next round, if anything waits.
    mutating func answered(again: [Append] = []) -> [Append]? {
        precondition(isSending, "a round was answered that was never sent")
        waiting.insert(contentsOf: again, at: 0)
        isSending = false
        return nextRound()
    }

    private mutating func nextRound() -> [Append]? {
        guard !waiting.isEmpty else { return nil }
        let count = min(limit, waiting.count)
        let round = Array(waiting.prefix(count))
        waiting.removeFirst(count)
        isSending = true
        return round
    }
}
