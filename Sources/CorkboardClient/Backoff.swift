import Foundation

/// Exponential backoff with jitter: how long to wait before the next reconnect, or before
/// resending an operation the server turned away for now (`rate-limited`, `unavailable`).
///
/// Jitter matters because a server restart drops every client at once: without it they
/// would all knock again at the same instants.
public struct Backoff: Sendable, Hashable {
    /// The delay before the first retry, in seconds.
    public var initial: Double
    /// No delay is longer than this, in seconds: the bound that keeps a long outage from
    /// turning into minutes of silence after the server is back.
    public var maximum: Double
    /// Each retry waits this many times longer than the one before (until `maximum`).
    public var multiplier: Double
    /// The random share of each delay, 0…1: 0.5 waits between half and all of it.
    public var jitter: Double

    /// The Swift client's policy between reconnect attempts (``BoardClientConfiguration``), which
    /// the restart bench's clients follow too.
    public static let reconnect = Backoff(initial: 0.1, maximum: 5)

    public init(initial: Double, maximum: Double, multiplier: Double = 2, jitter: Double = 0.5) {
        self.initial = initial
        self.maximum = maximum
        self.multiplier = multiplier
        self.jitter = min(1, max(0, jitter))
    }

    /// The delay before retry number `attempt` (0 for the first), `random` in 0..<1.
    public func delay(attempt: Int, random: Double) -> Double {
        // Capping the exponent keeps pow() finite however long the outage lasts.
        let grown = initial * pow(multiplier, Double(min(attempt, 60)))
        let bounded = min(maximum, grown)
        return bounded * (1 - jitter * random)
    }

    /// A delay for `attempt` with the system's random numbers.
    public func delay(attempt: Int) -> Double {
        delay(attempt: attempt, random: Double.random(in: 0..<1))
    }
}
