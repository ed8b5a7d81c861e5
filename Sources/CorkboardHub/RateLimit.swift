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

    /// Takes `cost` tokens (one action, or the bytes of one message) if there are that
    /// many. A cost above the burst passes when the bucket is full and leaves it in debt,
    /// so that no single message is refused for ever while the rate still holds on average.
    mutating func take(_ cost: Double = 1, now: UInt64 = DispatchTime.now().uptimeNanoseconds) -> Bool {
        refill(now)
        guard tokens >= min(cost, limit.burst) else { return false }
        tokens -= cost
        return true
    }

    /// Settles a `take` whose cost was estimated: `difference` more tokens (fewer when
    /// negative: a refund, up to a full bucket), going into debt if need be, so the next take
    /// waits until it is paid. For what is known only after it was allowed (an answer's bytes).
    mutating func settle(_ difference: Double, now: UInt64 = DispatchTime.now().uptimeNanoseconds) {
        refill(now)
        tokens = min(limit.burst, tokens - difference)
    }

    /// Nanoseconds until a token is available (0 when one is).
    mutating func wait(now: UInt64 = DispatchTime.now().uptimeNanoseconds) -> UInt64 {
        refill(now)
        return tokens >= 1 ? 0 : UInt64(((1 - tokens) / limit.perSecond * 1e9).rounded(.up))
    }

    /// The tokens there are now (below zero while a message's debt is paid off).
    mutating func tokens(now: UInt64 = DispatchTime.now().uptimeNanoseconds) -> Double {
        refill(now)
        return tokens
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
/// buckets held are only those of callers busy within the last burst's refill time.
struct RateBuckets: Sendable {
    let limit: RateLimit
    private var buckets: [String: TokenBucket] = [:]
    /// Sweeping at a size that doubles with what survived keeps it amortized O(1).
    private var sweepAt = 1024

    init(_ limit: RateLimit) { self.limit = limit }

    /// Callers remembered: what the table costs in memory.
    var count: Int { buckets.count }

    mutating func take(_ caller: String, cost: Double = 1, now: UInt64) -> Bool {
        if buckets.count >= sweepAt {
            buckets = buckets.filter { _, bucket in
                var bucket = bucket
                return !bucket.isFull(now: now)
            }
            sweepAt = max(1024, 2 * buckets.count)
        }
        var bucket = buckets[caller] ?? TokenBucket(limit, now: now)
        let allowed = bucket.take(cost, now: now)
        buckets[caller] = bucket
        return allowed
    }

    /// The tokens `caller` has now, without taking any (a caller not remembered has a full bucket).
    mutating func tokens(_ caller: String, now: UInt64) -> Double {
        guard var bucket = buckets[caller] else { return limit.burst }
        defer { buckets[caller] = bucket }
        return bucket.tokens(now: now)
    }

    /// Whether `caller` has a token left, without taking it (a caller not remembered has a full bucket).
    mutating func hasToken(_ caller: String, now: UInt64) -> Bool {
        buckets[caller] == nil || tokens(caller, now: now) >= 1
    }
}

/// `RateBuckets` shared by the threads that take from them.
final class RateTable: Sendable {
    private let buckets: Mutex<RateBuckets>

    init(_ limit: RateLimit) { buckets = Mutex(RateBuckets(limit)) }

    func take(_ caller: String, cost: Double = 1, now: UInt64 = DispatchTime.now().uptimeNanoseconds) -> Bool {
        buckets.withLock { $0.take(caller, cost: cost, now: now) }
    }

    func hasToken(_ caller: String, now: UInt64 = DispatchTime.now().uptimeNanoseconds) -> Bool {
        buckets.withLock { $0.hasToken(caller, now: now) }
    }

    var limit: RateLimit { buckets.withLock { $0.limit } }

    func tokens(_ caller: String, now: UInt64 = DispatchTime.now().uptimeNanoseconds) -> Double {
        buckets.withLock { $0.tokens(caller, now: now) }
    }
}
