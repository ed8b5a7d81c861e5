import Testing

@testable import CorkboardHub

/// The holder of an expired drag may not lease its items again for the cool-down; everyone
/// else may, and so may the holder once it has passed.
@Suite struct LeaseCooldownsTests {
    static let second: UInt64 = 1_000_000_000

    @Test func theExpiredHolderWaitsAndTheOthersDoNot() {
        var cooldowns = LeaseCooldowns()
        cooldowns.expired(["a", "b"], heldBy: ["c1", "Mallory"], now: 0, until: 10 * Self.second)
        #expect(cooldowns.wait(before: ["b"], by: ["c1", "Mallory"], now: Self.second) == 9 * Self.second)
        // Under another connection but the same `by`: still the same holder.
        #expect(cooldowns.wait(before: ["a", "z"], by: ["c9", "Mallory"], now: Self.second) == 9 * Self.second)
        #expect(cooldowns.wait(before: ["a"], by: ["c2", "Ada"], now: Self.second) == nil)
        #expect(cooldowns.wait(before: ["z"], by: ["c1", "Mallory"], now: Self.second) == nil)
        #expect(cooldowns.wait(before: ["a"], by: ["c1", "Mallory"], now: 10 * Self.second) == nil)
    }

    @Test func passedCooldownsAreForgotten() {
        var cooldowns = LeaseCooldowns()
        for index in 0..<1_000 {
            cooldowns.expired(["i\(index)"], heldBy: ["c\(index)"], now: UInt64(index) * Self.second, until: UInt64(index + 1) * Self.second)
        }
        #expect(cooldowns.wait(before: ["i998"], by: ["c998"], now: 999 * Self.second) == nil)
        #expect(cooldowns.wait(before: ["i999"], by: ["c999"], now: 999 * Self.second) == Self.second)
    }

    @Test func aRateTableTellsWhetherATokenIsLeftWithoutTakingIt() {
        var buckets = RateBuckets(RateLimit(perSecond: 1, burst: 2))
        let untouched = buckets.hasToken("a", now: 0)
        #expect(untouched && buckets.count == 0)
        let taken = [buckets.take("a", now: 0), buckets.take("a", now: 0)]
        #expect(taken == [true, true])
        let spent = buckets.hasToken("a", now: 0)
        let other = buckets.hasToken("b", now: 0)
        let refilled = buckets.hasToken("a", now: Self.second)
        #expect(!spent && other && refilled)
    }
}
