import Foundation

/// How long an endpoint waits before the next attempt after `failures` failed ones in a row:
/// `base` doubled each time, capped at `maximum`, then scaled by a jitter between 1/2 and 1 so
/// that endpoints failing together do not retry together (docs/integrations.md#retries).
public struct WebhookBackoff: Sendable, Hashable {
    /// Seconds before the first retry (before jitter).
    public var base: Double
    /// Seconds no wait exceeds (`--webhook-retry-max`).
    public var maximum: Double

    public static let standard = WebhookBackoff(base: 1, maximum: 600)

    public init(base: Double, maximum: Double) {
        self.base = base
        self.maximum = max(base, maximum)
    }

    /// Seconds to wait after the `failures`-th failure in a row (1 for the first); `jitter` in 0…1.
    public func delay(afterFailures failures: Int, jitter: Double) -> Double {
        let doublings = Double(max(0, min(failures - 1, 60)))
        let capped = min(maximum, base * pow(2, doublings))
        return capped * (0.5 + 0.5 * min(1, max(0, jitter)))
    }
}
