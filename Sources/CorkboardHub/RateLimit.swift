import Dispatch
import Synchronization

/// How fast one client may go: `perSecond` sustained, with bursts of up to `burst`.
public struct RateLimit: Sendable, Hashable {
    public var perSecond: Double
    public var burst: Double

    public init(perSecond: Double, burst: Double? = nil) {
        precondition(perSecond > 0, "a rate limit allows something; use nil for no limit")
        self.perSecond = perSecond
        self.burst = max(1, burst ?? perSecond)
    }
}

/// A token bucket: starts full, refills at `limit.perSecond` up to `limit.burst`, and each
/// allowed action takes one token. Time is passed in, so it is a plain value to test.
struct TokenBucket: Sendable {
    let limit: RateLimit
    private var tokens: Double
    private var updated: UInt64

    init(_ limit: RateLimit, now: UInt64 = DispatchTime.now().uptimeNanoseconds) {
        self.limit = limit
        tokens = limit.burst
        updated = now
    }

    /// Takes a token if there is one.
    mutating func take(now: UInt64 = DispatchTime.now().uptimeNanoseconds) -> Bool {
        take(1, now: now)
    }

    /// Takes `count` tokens if there are that many (never more than `limit.burst` can be).
    mutating func take(_ count: Double, now: UInt64 = DispatchTime.now().uptimeNanoseconds) -> Bool {
        refill(now)
        guard tokens >= count else { return false }
        tokens -= count
        return true
    }

    /// Nanoseconds until a token is available (0 when one is).
    mutating func wait(now: UInt64 = DispatchTime.now().uptimeNanoseconds) -> UInt64 {
        refill(now)
        return tokens >= 1 ? 0 : UInt64(((1 - tokens) / limit.perSecond * 1e9).rounded(.up))
    }

    /// A full bucket is the same as a new one, so a table of buckets may forget it.
    mutating func isFull(now: UInt64 = DispatchTime.now().uptimeNanoseconds) -> Bool {
        refill(now)
        return tokens >= limit.burst
    }

    private mutating func refill(_ now: UInt64) {
        guard now > updated else { return }
        tokens = min(limit.burst, tokens + Double(now - updated) / 1e9 * limit.perSecond)
        updated = now
    }
}

/// Token buckets by caller (HTTP callers by address, since an HTTP client may open a new
/// connection for every request). Full buckets are swept out, which forgets nothing, so the
/// table holds only callers that were busy within the last burst's refill time.
final class RateTable: Sendable {
    private struct State {
        var buckets: [String: TokenBucket] = [:]
        /// Sweeping at a size that doubles with what survived keeps it amortized O(1).
        var sweepAt = 1024
    }

    private let limit: RateLimit
    private let state = Mutex(State())

    init(_ limit: RateLimit) { self.limit = limit }

    func take(_ caller: String, now: UInt64 = DispatchTime.now().uptimeNanoseconds) -> Bool {
        state.withLock { state in
            if state.buckets.count >= state.sweepAt {
                state.buckets = state.buckets.filter { _, bucket in
                    var bucket = bucket
                    return !bucket.isFull(now: now)
                }
                state.sweepAt = max(1024, 2 * state.buckets.count)
            }
            var bucket = state.buckets[caller] ?? TokenBucket(limit, now: now)
            let allowed = bucket.take(now: now)
            state.buckets[caller] = bucket
            return allowed
        }
    }

    /// Callers currently remembered (for tests).
    var count: Int { state.withLock { $0.buckets.count } }
}
