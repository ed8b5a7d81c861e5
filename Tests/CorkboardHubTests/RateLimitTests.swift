import Testing

@testable import CorkboardHub

@Suite struct RateLimitTests {
    static let second: UInt64 = 1_000_000_000

    @Test func aBucketAllowsItsBurstThenRefillsAtItsRate() {
        var bucket = TokenBucket(RateLimit(perSecond: 4, burst: 2), now: 0)
        let taken = (0..<3).map { _ in bucket.take(now: 0) }
        #expect(taken == [true, true, false])
        let wait = bucket.wait(now: 0)
        #expect(wait == Self.second / 4)
        let early = bucket.take(now: Self.second / 8)
        #expect(!early, "half a token")
        let due = bucket.take(now: Self.second / 4)
        #expect(due)
        // A long pause refills only up to the burst.
        let full = bucket.isFull(now: 10 * Self.second)
        #expect(full)
        let later = (0..<3).map { _ in bucket.take(now: 10 * Self.second) }
        #expect(later == [true, true, false])
    }

    /// An estimate taken up front (a `peers.list` at its page's bound) and settled with the
    /// answer's real size: a smaller answer gives tokens back (never past the burst), a bigger
    /// one leaves the bucket in debt until the rate has paid it.
    @Test func anEstimatedTakeIsSettledWithWhatItCost() {
        var bucket = TokenBucket(RateLimit(perSecond: 100, burst: 1_000), now: 0)
        let estimated = bucket.take(600, now: 0)
        bucket.settle(-400, now: 0)
        let refunded = bucket.take(800, now: 0)
        #expect(estimated && refunded, "200 were used of the 600 taken")
        bucket.settle(-10_000, now: 0)
        let takenWhole = bucket.take(1_000, now: 0)
        let oneMore = bucket.take(1, now: 0)
        #expect(takenWhole && !oneMore, "refunds stop at the burst")
        bucket.settle(2_500, now: 0)
        let inDebt = bucket.take(1, now: 10 * Self.second)
        #expect(!inDebt, "1,500 tokens in debt after 1,000 came back")
        let paid = bucket.take(1, now: 26 * Self.second)
        #expect(paid)
    }

    @Test func theBurstDefaultsToOneSecondsWorth() {
        #expect(RateLimit(perSecond: 50).burst == 50)
        #expect(RateLimit(perSecond: 0.5).burst == 1, "at least one action is always possible")
    }

    @Test func aTableKeepsOneBucketPerCallerAndForgetsOnlyFullOnes() {
        var table = RateBuckets(RateLimit(perSecond: 1, burst: 1))
        let first = table.take("a", now: 0)
        let again = table.take("a", now: 0)
        let other = table.take("b", now: 0)
        #expect(first && !again)
        #expect(other, "callers do not share a budget")
        // A thousand callers busy at 0, then new ones at 5 s: when the table reaches its
        // sweep size, the buckets that have refilled by then are forgotten, and only those.
        for n in 0..<1020 { _ = table.take("caller-\(n)", now: 0) }
        for n in 0..<10 { _ = table.take("late-\(n)", now: 5 * Self.second) }
        #expect(table.count == 10, "only the late callers are left")
        let late = table.take("late-0", now: 5 * Self.second)
        let forgotten = table.take("a", now: 5 * Self.second)
        #expect(!late, "a busy bucket survives the sweep")
        #expect(forgotten, "a forgotten caller starts with a full bucket, as it would have")
    }
}
