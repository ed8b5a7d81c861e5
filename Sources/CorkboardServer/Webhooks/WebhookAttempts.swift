import Foundation

/// One endpoint's delivery state between attempts, without any I/O: an attempt's outcome goes
/// in with the time it ended, and out comes what to do (move the cursor on, or wait until a
/// time and try the same message again). Also what the API lists as the endpoint's state.
struct WebhookAttempts: Sendable, Hashable {
    /// How an attempt ended.
    enum Outcome: Sendable, Hashable {
        /// The receiver answered with this status.
        case answered(Int)
        /// No answer: refused, reset, timed out, TLS failed (the reason).
        case unreachable(String)

        var succeeded: Bool {
            if case .answered(let status) = self { return (200...299).contains(status) }
            return false
        }
    }

    enum Decision: Sendable, Hashable {
        /// Delivered: the cursor moves past the message, and the next one may go now.
        case advance
        /// Not delivered: the same message goes again at this time.
        case retry(at: Date)
    }

    let backoff: WebhookBackoff
    /// Failed attempts in a row (0 after a success).
    private(set) var failures = 0
    private(set) var lastAttemptAt: Date?
    private(set) var lastOutcome: Outcome?
    /// When the next attempt may be made (nil: now).
    private(set) var nextAttemptAt: Date?

    init(backoff: WebhookBackoff) { self.backoff = backoff }

    /// Whether an attempt may be made at `now`.
    func isDue(at now: Date) -> Bool { nextAttemptAt.map { now >= $0 } ?? true }

    /// Records an attempt that ended at `now`; `jitter` (0…1) spreads the retries.
    mutating func record(_ outcome: Outcome, at now: Date, jitter: Double) -> Decision {
        lastAttemptAt = now
        lastOutcome = outcome
        if outcome.succeeded {
            failures = 0
            nextAttemptAt = nil
            return .advance
        }
        failures += 1
        let retry = now.addingTimeInterval(backoff.delay(afterFailures: failures, jitter: jitter))
        nextAttemptAt = retry
        return .retry(at: retry)
    }
}
