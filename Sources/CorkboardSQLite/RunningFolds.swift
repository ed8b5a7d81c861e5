import Dispatch
import Synchronization

/// The boards whose log is being folded, from the transaction that decided the fold until its
/// snapshot is installed (or the fold is given up): one fold per board at a time, and a way
/// for `close()` to wait for those under way. Also the folds that failed (a stored log that
/// does not apply): not tried again while the board has the same epoch and snapshot, since
/// each try would read and decode the whole log again after every append, on the one fold
/// queue every board's folds wait on.
final class RunningFolds: Sendable {
    private let boards = Mutex<Set<String>>([])
    private let failed = Mutex<[String: FoldJob]>([:])
    private let underWay = DispatchGroup()

    func contains(_ board: String) -> Bool {
        boards.withLock { $0.contains(board) }
    }

    /// Claims the board's fold; false when one is under way already, or when one from the
    /// same epoch and snapshot failed.
    func begin(_ job: FoldJob) -> Bool {
        let retried = failed.withLock { failed in
            guard let earlier = failed[job.board] else { return false }
            if earlier.epoch == job.epoch && earlier.snapshotSeq == job.snapshotSeq { return true }
            failed[job.board] = nil
            return false
        }
        guard !retried else { return false }
        let claimed = boards.withLock { $0.insert(job.board).inserted }
        if claimed { underWay.enter() }
        return claimed
    }

    /// The fold could not be made: it ends, and is not tried again from the same snapshot.
    func failed(_ job: FoldJob) {
        failed.withLock { $0[job.board] = job }
        end(job.board)
    }

    func end(_ board: String) {
        if boards.withLock({ $0.remove(board) }) != nil { underWay.leave() }
    }

    /// Returns once no fold is under way.
    func waitUntilNoneRuns() {
        underWay.wait()
    }
}
