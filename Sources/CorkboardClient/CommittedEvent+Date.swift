import CorkboardModel
import Foundation

extension CommittedEvent {
    /// When the server committed it (`at` as a `Date`); nil for an event stored before the
    /// server kept commit times.
    public var committedDate: Date? {
        at.map { Date(timeIntervalSince1970: Double($0) / 1000) }
    }

    /// `at` as UTC ISO 8601 with milliseconds (`2026-11-25T03:10:00.123Z`), as `corkboard bot
    /// watch` prints it.
    public var committedTimeText: String? {
        committedDate.map { date in
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            return formatter.string(from: date)
        }
    }
}
