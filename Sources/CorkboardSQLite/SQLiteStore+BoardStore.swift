import CorkboardModel
import CorkboardStore
import GRDB

/// The `BoardStore` calls. Reads and board creation run one by one on the store's queue;
/// appends go through group commit (`SQLiteStore+Append.swift`).
extension SQLiteStore {
    public func listBoards(_ completion: @escaping @Sendable (Result<[BoardSummary], StoreError>) -> Void) {
        perform(writing: false, completion) { db in .success(try BoardTables.summaries(db)) }
    }

    public func createBoard(_ board: Board, epoch: String, _ completion: @escaping @Sendable (Result<Void, StoreError>) -> Void) {
        perform(writing: true, completion) { db in
            guard try BoardTables.head(db, board.id) == nil else { return .failure(.alreadyExists) }
            try BoardTables.insertBoard(db, board, seq: 0, epoch: epoch)
            try WebhookTables.record(db, .created, board: board.id)
            return .success(())
        }
    }

    public func deleteBoard(_ id: String, _ completion: @escaping @Sendable (Result<Void, StoreError>) -> Void) {
        perform(writing: true, completion) { db in
            guard try BoardTables.deleteBoard(db, id) else { return .failure(.notFound) }
            try WebhookTables.record(db, .deleted, board: id)
            return .success(())
        }
    }

    public func loadBoard(
        _ id: String, historyLimit: Int,
        _ completion: @escaping @Sendable (Result<StoredBoard?, StoreError>) -> Void
    ) {
        perform(writing: false, completion) { db in
            guard let head = try BoardTables.head(db, id) else { return .success(nil) }
            // Events beyond the limit are folded into the returned snapshot, on a copy:
            // the stored snapshot is left as it is.
            let start = max(head.snapshotSeq, head.seq - max(0, historyLimit))
            var snapshot = FoldingBoard(try BoardTables.snapshot(db, id))
            // The opIds of the last `historyLimit` commits, folded ones included.
            var folded = try BoardTables.foldedCommits(db, board: id, after: head.seq - max(0, historyLimit))
            for event in try BoardTables.events(db, board: id, after: head.snapshotSeq, through: start) {
                do {
                    try snapshot.apply(event.op)
                } catch {
                    return .failure(.unavailable("stored log of \(id) does not apply at \(event.seq): \(error)"))
                }
                folded.append(FoldedCommit(opId: event.opId, seq: event.seq))
            }
            let answers = try BoardTables.answers(db, board: id)
            return .success(
                StoredBoard(
                    snapshot: snapshot.board, snapshotSeq: start, epoch: head.epoch,
                    events: try BoardTables.events(db, board: id, after: start),
                    rejections: answers.rejections, noops: answers.noops, foldedCommits: folded))
        }
    }

    public func events(
        board id: String, after seq: Int, limit: Int,
        _ completion: @escaping @Sendable (Result<[CommittedEvent], StoreError>) -> Void
    ) {
        perform(writing: false, completion) { db in
            guard let head = try BoardTables.head(db, id) else { return .failure(.notFound) }
            guard seq >= head.snapshotSeq else {
                return .failure(.pruned(logStartsAfter: head.snapshotSeq))
            }
            return .success(try BoardTables.events(db, board: id, after: seq, limit: limit))
        }
    }

    public func append(_ batch: CommitBatch, _ completion: @escaping @Sendable (Result<Void, StoreError>) -> Void) {
        if commits.add(GroupCommit.Append(batch: batch, completion: completion)) {
            queue.async { [self] in drain() }
        }
    }
}
