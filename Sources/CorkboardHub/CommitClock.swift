import Foundation

/// The wall clock a commit's `at` is read from. Wall time, not uptime: integrations compare
/// it with times of their own. A clock stepped back is not followed backwards (the room takes
/// the later of this and the board's last `at`).
enum CommitClock {
    static func millisecondsSince1970() -> Int {
        Int((Date().timeIntervalSince1970 * 1000).rounded(.down))
    }
}
