import CorkboardBench
import Testing

@Suite struct LatencySummaryTests {
    @Test func percentilesOfKnownSamplesInMilliseconds() {
        // 1 ms … 100 ms, one each, in nanoseconds.
        let summary = LatencySummary(nanoseconds: (1...100).map { UInt64($0) * 1_000_000 })
        #expect(summary.count == 100)
        // HdrHistogram with 3 significant digits: within 0.1 %.
        #expect(abs(summary.p50 - 50) <= 0.05)
        #expect(abs(summary.p95 - 95) <= 0.1)
        #expect(abs(summary.p99 - 99) <= 0.1)
        #expect(abs(summary.max - 100) <= 0.1)
    }

    @Test func emptyIsZeroNotACrash() {
        let summary = LatencySummary(nanoseconds: [])
        #expect(summary.count == 0)
        #expect(summary.p99 == 0)
    }
}
