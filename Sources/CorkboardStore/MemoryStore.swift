import CorkboardModel
import Synchronization

/// Boards kept in this process only (`--store memory`, and the hub's tests): everything
/// is gone when the process stops. Appends are atomic under one lock, so it behaves like a
/// durable store that never fails; the log is trimmed to `retainedEvents` per board.
public final class MemoryStore: BoardStore {
    private struct Entry {
        var epoch: String
        /// The board at `baseSeq`; `events` follow it.
        var base: Board
        var baseSeq: Int
        var events: [CommittedEvent]
        var rejections: [Rejection]
        var noops: [Noop] = []
        /// The events' footprints, added up (`LogRetention.byteBudget` bounds it).
        var logBytes = 0
        /// The opIds of folded events, for the last `retainedEvents` seqs.
        var folded: [FoldedCommit] = []
        var seq: Int { events.last?.seq ?? baseSeq }

        /// How many of the oldest events to fold so the log is back within `retention`:
        /// by count past its bound, by bytes past budget plus slack.
        func eventsToFold(_ retention: LogRetention) -> Int {
            let byCount = events.count > 2 * retention.retained ? events.count - retention.retained : 0
            guard logBytes > retention.byteBudget + retention.byteSlack else { return byCount }
            let newestFirst = events.reversed().lazy.map { (seq: $0.seq, bytes: $0.footprint) }
            guard let through = retention.foldThrough(newestFirst: newestFirst) else { return byCount }
            return max(byCount, through - baseSeq)
        }
    }

    private let boards = Mutex<[String: Entry]>([:])
    /// Events kept per board. The log is folded into the base snapshot once it holds twice
    /// as many, so appends stay cheap on average; or once its events' footprints pass the
    /// byte budget by its slack (`LogRetention`).
    public let retainedEvents: Int
    private let retention: LogRetention

    public init(retainedEvents: Int = BoardEngine.defaultHistoryCapacity, historyByteBudget: Int = BoardEngine.defaultHistoryByteBudget) {
        precondition(retainedEvents > 0, "a store keeps at least one event")
        self.retainedEvents = retainedEvents
        retention = LogRetention(retained: retainedEvents, byteBudget: historyByteBudget)
    }

    public func listBoards(_ completion: @escaping @Sendable (Result<[BoardSummary], StoreError>) -> Void) {
        let summaries = boards.withLock { boards in
            boards.map { BoardSummary(id: $0.key, title: $0.value.base.title, seq: $0.value.seq) }
        }
        completion(.success(summaries.sorted { $0.id < $1.id }))
    }

    public func createBoard(_ board: Board, epoch: String, _ completion: @escaping @Sendable (Result<Void, StoreError>) -> Void) {
        let created = boards.withLock { boards in
            guard boards[board.id] == nil else { return false }
            boards[board.id] = Entry(epoch: epoch, base: board, baseSeq: 0, events: [], rejections: [])
            return true
        }
        completion(created ? .success(()) : .failure(.alreadyExists))
    }

    public func loadBoard(
        _ id: String, historyLimit: Int,
        _ completion: @escaping @Sendable (Result<StoredBoard?, StoreError>) -> Void
    ) {
        guard let entry = boards.withLock({ $0[id] }) else { return completion(.success(nil)) }
        // Fold what lies beyond the limit into the snapshot, on a copy.
        let skipped = max(0, entry.events.count - max(0, historyLimit))
        var snapshot = entry.base
        do {
            for event in entry.events.prefix(skipped) { try snapshot.apply(event.op) }
        } catch {
            return completion(.failure(.unavailable("stored log of \(id) does not apply: \(error)")))
        }
        let kept = entry.seq - max(0, historyLimit)
        let folded = entry.folded.filter { $0.seq > kept } + entry.events.prefix(skipped).map { FoldedCommit(opId: $0.opId, seq: $0.seq) }
        completion(.success(StoredBoard(
            snapshot: snapshot, snapshotSeq: entry.baseSeq + skipped, epoch: entry.epoch,
            events: Array(entry.events.dropFirst(skipped)), rejections: entry.rejections, noops: entry.noops,
            foldedCommits: folded)))
    }

    public func append(_ batch: CommitBatch, _ completion: @escaping @Sendable (Result<Void, StoreError>) -> Void) {
        let retained = retainedEvents
        let retention = retention
        let result: Result<Void, StoreError> = boards.withLock { boards in
            // Taken out of the dictionary while it changes, so its log is appended to in
            // place rather than copied on every batch; put back on every path.
            guard var entry = boards.removeValue(forKey: batch.board) else { return .failure(.notFound) }
            defer { boards[batch.board] = entry }
            guard entry.seq == batch.expectedSeq else { return .failure(.conflict(currentSeq: entry.seq)) }
            for (offset, event) in batch.events.enumerated() where event.seq != batch.expectedSeq + offset + 1 {
                return .failure(.unavailable("batch for \(batch.board) is not in seq order at \(event.seq)"))
            }
            entry.events += batch.events
            entry.logBytes += batch.events.reduce(0) { $0 + $1.footprint }
            entry.rejections += batch.rejections
            if entry.rejections.count > 2 * retained { entry.rejections.removeFirst(entry.rejections.count - retained) }
            entry.noops += batch.noops
            if entry.noops.count > 2 * retained { entry.noops.removeFirst(entry.noops.count - retained) }
            let folded = entry.eventsToFold(retention)
            if folded > 0 {
                var base = entry.base
                do {
                    for event in entry.events.prefix(folded) { try base.apply(event.op) }
                } catch {
                    entry.events.removeLast(batch.events.count)
                    entry.logBytes -= batch.events.reduce(0) { $0 + $1.footprint }
                    entry.rejections.removeLast(min(batch.rejections.count, entry.rejections.count))
                    entry.noops.removeLast(min(batch.noops.count, entry.noops.count))
                    return .failure(.unavailable("log of \(batch.board) does not apply: \(error)"))
                }
                entry.base = base
                entry.folded += entry.events.prefix(folded).map { FoldedCommit(opId: $0.opId, seq: $0.seq) }
                entry.folded.removeFirst(entry.folded.prefix { $0.seq <= entry.seq - retained }.count)
                entry.baseSeq += folded
                entry.logBytes -= entry.events.prefix(folded).reduce(0) { $0 + $1.footprint }
                entry.events.removeFirst(folded)
            }
            return .success(())
        }
        completion(result)
    }

    /// Nothing to finish: every call completes before it returns.
    public func close() {}

    public func events(
        board id: String, after seq: Int, limit: Int,
        _ completion: @escaping @Sendable (Result<[CommittedEvent], StoreError>) -> Void
    ) {
        guard let entry = boards.withLock({ $0[id] }) else { return completion(.failure(.notFound)) }
        guard seq >= entry.baseSeq else {
            return completion(.failure(.pruned(logStartsAfter: entry.baseSeq)))
        }
        completion(.success(Array(entry.events.dropFirst(seq - entry.baseSeq).prefix(limit))))
    }
}
