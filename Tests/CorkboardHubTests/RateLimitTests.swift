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

    @Test func theBurstDefaultsToOneSecondsWorth() {
        #expect(RateLimit(perSecond: 50).burst == 50)
        #expect(RateLimit(perSecond: 0.5).burst == 1, "at least one action is always possible")
    }

    @Test func aTableKeepsOneBucketPerCallerAndForgetsOnlyFullOnes() {
        let table = RateTable(RateLimit(perSecond: 1, burst: 1))
        #expect(table.take("a", now: 0))
        #expect(!table.take("a", now: 0))
        #expect(table.take("b", now: 0), "callers do not share a budget")
        // Fill the table past its sweep size: at a time when every bucket has refilled, the
        // sweep forgets all of them, which changes nothing for the callers.
        for n in 0..<1100 { _ = table.take("caller-\(n)", now: 0) }
        #expect(table.take("a", now: 5 * Self.second))
        #expect(table.count < 100)
        #expect(!table.take("a", now: 5 * Self.second), "the bucket taken from after the sweep is remembered")
    }
}
