import CorkboardModel
import Synchronization

/// Boards kept in this process only (`--store memory`, and the hub's tests): everything
/// is gone when the process stops. Appends are atomic under one lock, so it behaves like a
/// durable store that never fails; each board's log is folded by `LogFolding`, as in the
/// durable stores (its events counted by their `footprint`).
public final class MemoryStore: BoardStore {
    /// A remembered rejection or noop, with the seq the board had when it was decided.
    private struct Answer {
        enum Kind {
            case rejection(Rejection)
            case noop(Noop)
        }

        var opId: OperationID
        var kind: Kind
        var decidedSeq: Int
    }

    private struct Entry {
        var epoch: String
        /// The board at `baseSeq`; `events` follow it.
        var base: Board
        /// The board's title now: the base's, or what a later rename made it (the listing's).
        var title: String
        var baseSeq: Int
        var events: [CommittedEvent] = []
        /// In the order decided; one per opId.
        var answers: [Answer] = []
        /// The opIds of folded events, for the last `retainedEvents` seqs.
        var folded: [FoldedCommit] = []
        var seq: Int { events.last?.seq ?? baseSeq }
    }

    /// Nil once closed.
    private let boards = Mutex<[String: Entry]?>([:])
    /// The revocations in force (`MemoryStore+Revocations.swift`).
    let revoked = Mutex<[TokenRevocation.Target: TokenRevocation]>([:])
    /// Webhook endpoints, progress and notices (`MemoryStore+Webhooks.swift`).
    let webhooks = Mutex(MemoryWebhooks())
    /// Events kept per board at least (`LogRetention.retained`).
    public let retainedEvents: Int
    private let folding: LogFolding

    public init(retainedEvents: Int = BoardEngine.defaultHistoryCapacity, historyByteBudget: Int = BoardEngine.defaultHistoryByteBudget) {
        precondition(retainedEvents > 0, "a store keeps at least one event")
        self.retainedEvents = retainedEvents
        folding = LogFolding(LogRetention(retained: retainedEvents, byteBudget: historyByteBudget))
    }

    private static let closed = StoreError.unavailable("the memory store is closed")

    public func listBoards(_ completion: @escaping @Sendable (Result<[BoardSummary], StoreError>) -> Void) {
        guard let summaries = boards.withLock({ $0?.map { BoardSummary(id: $0.key, title: $0.value.title, seq: $0.value.seq) } }) else {
            return completion(.failure(Self.closed))
        }
        completion(.success(summaries.sorted { $0.id < $1.id }))
    }

    public func createBoard(_ board: Board, epoch: String, _ completion: @escaping @Sendable (Result<Void, StoreError>) -> Void) {
        let result: Result<Void, StoreError> = boards.withLock { boards in
            guard boards != nil else { return .failure(Self.closed) }
            guard boards?[board.id] == nil else { return .failure(.alreadyExists) }
            boards?[board.id] = Entry(epoch: epoch, base: board, title: board.title, baseSeq: 0)
            webhooks.withLock { $0.record(.created, board: board.id) }
            return .success(())
        }
        completion(result)
    }

    public func deleteBoard(_ id: String, _ completion: @escaping @Sendable (Result<Void, StoreError>) -> Void) {
        let result: Result<Void, StoreError> = boards.withLock { boards in
            guard boards != nil else { return .failure(Self.closed) }
            guard boards?.removeValue(forKey: id) != nil else { return .failure(.notFound) }
            webhooks.withLock { $0.record(.deleted, board: id) }
            return .success(())
        }
        completion(result)
    }

    public func loadBoard(
        _ id: String, historyLimit: Int,
        _ completion: @escaping @Sendable (Result<StoredBoard?, StoreError>) -> Void
    ) {
        let entry: Entry
        switch lookUp(id) {
        case .failure(let error): return completion(.failure(error))
        case .success(nil): return completion(.success(nil))
        case .success(let found?): entry = found
        }
        // Fold what lies beyond the limit into the snapshot, on a copy.
        let skipped = max(0, entry.events.count - max(0, historyLimit))
        var snapshot = FoldingBoard(entry.base)
        do {
            for event in entry.events.prefix(skipped) { try snapshot.apply(event.op) }
        } catch {
            return completion(.failure(.unavailable("stored log of \(id) does not apply: \(error)")))
        }
        let kept = entry.seq - max(0, historyLimit)
        let folded = entry.folded.filter { $0.seq > kept } + entry.events.prefix(skipped).map { FoldedCommit(opId: $0.opId, seq: $0.seq) }
        var rejections: [Rejection] = []
        var noops: [Noop] = []
        for answer in entry.answers {
            switch answer.kind {
            case .rejection(let rejection): rejections.append(rejection)
            case .noop(let noop): noops.append(noop)
            }
        }
        completion(
            .success(
                StoredBoard(
                    snapshot: snapshot.board, snapshotSeq: entry.baseSeq + skipped, epoch: entry.epoch,
                    events: Array(entry.events.dropFirst(skipped)), rejections: rejections, noops: noops, foldedCommits: folded)))
    }

    public func append(_ batch: CommitBatch, _ completion: @escaping @Sendable (Result<Void, StoreError>) -> Void) {
        if let problem = batch.seqOrderProblem { return completion(.failure(.unavailable(problem))) }
        let folding = folding
        let result: Result<Void, StoreError> = boards.withLock { boards in
            guard boards != nil else { return .failure(Self.closed) }
            // Taken out of the dictionary while it changes, so its log is appended to in
            // place rather than copied on every batch; put back on every path.
            guard var entry = boards?.removeValue(forKey: batch.board) else { return .failure(.notFound) }
            defer { boards?[batch.board] = entry }
            // The board of another epoch under this id: the batch's board is gone.
            guard batch.extends(epoch: entry.epoch) else { return .failure(.notFound) }
            guard entry.seq == batch.expectedSeq else { return .failure(.conflict(currentSeq: entry.seq)) }
            entry.events += batch.events
            let step = folding.afterAppend(
                board: batch.board, seq: entry.seq, snapshotSeq: entry.baseSeq,
                appendedBytes: batch.events.reduce(0) { $0 + $1.footprint })
            // The new base is computed on a copy: a log that does not apply leaves the board as it was.
            var folded: (through: Int, base: Board)?
            if let through = Self.foldPoint(step, of: entry, folding) {
                // Each event costs about its own size, not the board's (`FoldingBoard`).
                var base = FoldingBoard(entry.base)
                do {
                    for event in entry.events.prefix(through - entry.baseSeq) { try base.apply(event.op) }
                } catch {
                    entry.events.removeLast(batch.events.count)
                    return .failure(.unavailable("log of \(batch.board) does not apply: \(error)"))
                }
                folded = (through, base.board)
            }
            Self.remember(batch, in: &entry, forgetting: folding)
            if let title = batch.boardTitle { entry.title = title }
            if let folded { Self.fold(&entry, through: folded.through, into: folded.base, folding) }
            return .success(())
        }
        completion(result)
    }

    /// Remembers the batch's answers (replacing those of the same opIds) and keeps them within
    /// the bound.
    private static func remember(_ batch: CommitBatch, in entry: inout Entry, forgetting folding: LogFolding) {
        let decided = batch.expectedSeq + batch.events.count
        let answers =
            batch.rejections.map { Answer(opId: $0.opId, kind: .rejection($0), decidedSeq: decided) }
            + batch.noops.map { Answer(opId: $0.opId, kind: .noop($0), decidedSeq: decided) }
        guard !answers.isEmpty else { return }
        let replaced = Set(answers.map(\.opId))
        entry.answers.removeAll { replaced.contains($0.opId) }
        // The last answer for an opId within the batch wins, as in the durable stores.
        var seen = Set<OperationID>()
        entry.answers += answers.reversed().filter { seen.insert($0.opId).inserted }.reversed()
        entry.answers.removeFirst(folding.answersToForget(count: entry.answers.count))
    }

    private static func foldPoint(_ step: LogFolding.Step, of entry: Entry, _ folding: LogFolding) -> Int? {
        switch step {
        case .keep: return nil
        case .fold(let through): return through
        case .measure(let byCount):
            let newestFirst = entry.events.reversed().lazy.map { (seq: $0.seq, bytes: $0.footprint) }
            return folding.foldThrough(byCount: byCount, snapshotSeq: entry.baseSeq, newestFirst: newestFirst)
        }
    }

    /// Installs `base`, the board at `seq`, dropping the events it folded in but keeping their
    /// opIds for the last `retained` seqs, and forgets the answers decided at or before it.
    private static func fold(_ entry: inout Entry, through seq: Int, into base: Board, _ folding: LogFolding) {
        let count = seq - entry.baseSeq
        let forgotten = folding.opIdsForgottenThrough(seq: entry.seq)
        entry.folded += entry.events.prefix(count).map { FoldedCommit(opId: $0.opId, seq: $0.seq) }
        entry.folded.removeFirst(entry.folded.prefix { $0.seq <= forgotten }.count)
        entry.events.removeFirst(count)
        entry.base = base
        entry.baseSeq = seq
        entry.answers.removeAll { $0.decidedSeq <= seq }
    }

    /// The planned board in place of whatever the id held, under the lock.
    public func importBoard(
        _ archive: BoardArchive, replacing: Bool, _ completion: @escaping @Sendable (Result<ImportedBoard, StoreError>) -> Void
    ) {
        let result: Result<ImportedBoard, StoreError> = boards.withLock { boards in
            guard boards != nil else { return .failure(Self.closed) }
            let existing = boards?[archive.board.id]
            if existing != nil && !replacing { return .failure(.alreadyExists) }
            guard let plan = ArchiveImport(archive, existing: existing.map { ($0.seq, $0.epoch) }) else {
                return .failure(.conflict(currentSeq: existing?.seq ?? 0))
            }
            boards?[archive.board.id] = Entry(
                epoch: plan.epoch, base: plan.snapshot, title: plan.board.title, baseSeq: plan.snapshotSeq, events: plan.events)
            // As the durable stores tell the webhooks: the board there went, a board came.
            webhooks.withLock { tables in
                if existing != nil { tables.record(.deleted, board: archive.board.id) }
                tables.record(.created, board: archive.board.id)
            }
            return .success(plan.imported(replacedExisting: existing != nil))
        }
        completion(result)
    }

    /// The board's entry (a copy sharing its storage), nil when there is none.
    private func lookUp(_ id: String) -> Result<Entry?, StoreError> {
        boards.withLock { boards in boards.map { .success($0[id]) } ?? .failure(Self.closed) }
    }

    /// Every later call answers `.unavailable`, as a durable store's would; the boards are gone.
    public func close() {
        boards.withLock { $0 = nil }
    }

    public func events(
        board id: String, after seq: Int, limit: Int,
        _ completion: @escaping @Sendable (Result<[CommittedEvent], StoreError>) -> Void
    ) {
        switch lookUp(id) {
        case .failure(let error): completion(.failure(error))
        case .success(nil): completion(.failure(.notFound))
        case .success(let entry?):
            guard seq >= entry.baseSeq else { return completion(.failure(.pruned(logStartsAfter: entry.baseSeq))) }
            completion(.success(Array(entry.events.dropFirst(seq - entry.baseSeq).prefix(max(0, limit)))))
        }
    }
}
