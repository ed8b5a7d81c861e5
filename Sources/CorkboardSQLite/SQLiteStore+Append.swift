import CorkboardStore
import GRDB

/// Group commit: every append waiting when a transaction starts goes into it.
extension SQLiteStore {
    /// Runs on `queue`: one transaction for everything waiting, then the answers, then
    /// again (queued, behind reads) if more arrived while it was written.
    func drain() {
        let group = commits.takeAll()
        if !group.isEmpty { commit(group) }
        if commits.finishDrain() {
            queue.async { [self] in drain() }
        }
    }

    /// Writes the group in one transaction (one fsync in `.full`), each batch in its own
    /// savepoint, and answers each append once the transaction committed, or failed. The
    /// folds it found due start after it, on `foldQueue`; they are claimed before anyone is
    /// answered, so a `close()` right after an answer waits for them.
    func commit(_ group: [GroupCommit.Append]) {
        let (results, due) = write(group.map(\.batch))
        if let foldReader {
            for job in due where folds.begin(job) {
                foldQueue.async { [self] in runFold(job, reader: foldReader) }
            }
        }
        for (append, result) in zip(group, results) { append.completion(result) }
    }

    private func write(_ batches: [CommitBatch]) -> ([Result<Void, StoreError>], [FoldJob]) {
        if isClosed {
            return (batches.map { _ in .failure(.unavailable(SQLiteStoreError.closed(path: databasePath).description)) }, [])
        }
        if isReadOnly {
            return (batches.map { _ in .failure(.unavailable(SQLiteStoreError.openedReadOnly(path: databasePath).description)) }, [])
        }
        var results: [Result<Void, StoreError>] = []
        var folds: [FoldJob] = []
        results.reserveCapacity(batches.count)
        do {
            try database.writeWithoutTransaction { db in
                try db.inTransaction(.immediate) {
                    for batch in batches {
                        let (result, fold) = try writer.write(batch, in: db)
                        results.append(result)
                        if let fold { folds.append(fold) }
                    }
                    return .commit
                }
            }
        } catch {
            // The transaction was rolled back: none of its batches was written, whatever
            // its own checks said.
            let failure = StorageFailure.unavailable(error, path: databasePath)
            return (batches.map { _ in .failure(failure) }, [])
        }
        return (results, folds)
    }
}
