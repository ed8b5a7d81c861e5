import Histogram

/// Latency percentiles of one measurement, recorded in microseconds in an HdrHistogram
/// (3 significant digits up to an hour), reported in milliseconds.
public struct LatencySummary: Codable, Sendable, Equatable {
    public var count: Int
    public var p50: Double
    public var p95: Double
    public var p99: Double
    public var max: Double

    public init(nanoseconds samples: some Sequence<UInt64>) {
        var histogram = Histogram<UInt64>(highestTrackableValue: 3_600_000_000, numberOfSignificantValueDigits: .three)
        for sample in samples { _ = histogram.record(Swift.max(1, sample / 1_000)) }
        count = Int(histogram.totalCount)
        func milliseconds(_ microseconds: UInt64) -> Double { Double(microseconds) / 1_000 }
        p50 = count == 0 ? 0 : milliseconds(histogram.valueAtPercentile(50))
        p95 = count == 0 ? 0 : milliseconds(histogram.valueAtPercentile(95))
        p99 = count == 0 ? 0 : milliseconds(histogram.valueAtPercentile(99))
        max = count == 0 ? 0 : milliseconds(histogram.max)
    }

    public var text: String {
        String(format: "p50 %.2f ms  p95 %.2f ms  p99 %.2f ms  max %.2f ms", p50, p95, p99, max)
    }
}
