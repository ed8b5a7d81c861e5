import Dispatch
import Synchronization

/// The boards whose log is being folded, from the transaction that decided the fold until its
/// snapshot is installed (or the fold is given up): one fold per board at a time, and a way
/// for `close()` to wait for those under way.
final class RunningFolds: Sendable {
    private let boards = Mutex<Set<String>>([])
    private let underWay = DispatchGroup()

    func contains(_ board: String) -> Bool {
        boards.withLock { $0.contains(board) }
    }

    /// Claims the board's fold; false when one is under way already.
    func begin(_ board: String) -> Bool {
        let claimed = boards.withLock { $0.insert(board).inserted }
        if claimed { underWay.enter() }
        return claimed
    }

    func end(_ board: String) {
        if boards.withLock({ $0.remove(board) }) != nil { underWay.leave() }
    }

    /// Returns once no fold is under way.
    func waitUntilNoneRuns() {
        underWay.wait()
    }
}
