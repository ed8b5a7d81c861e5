import Synchronization

/// Bytes appended per board since its log was last measured: what tells the writer when a
/// board's log may have outgrown its byte budget, without measuring it at every append.
/// Kept in memory only (a restart measures again after `byteSlack` more bytes).
///
/// Used on the store's queue only; the mutex makes that safe to state to the compiler.
final class ByteTally: Sendable {
    private let bytes = Mutex<[String: Int]>([:])

    /// Adds `count` to the board's tally and returns the new total.
    func add(_ count: Int, to board: String) -> Int {
        bytes.withLock { tally in
            tally[board, default: 0] += count
            return tally[board]!
        }
    }

    func reset(_ board: String) {
        bytes.withLock { _ = $0.removeValue(forKey: board) }
    }
}
