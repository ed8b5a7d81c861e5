/// How long a loop lets a hold period last at least, from how long its last long flush took.
///
/// On a busy board a loop's flush is a pass over every member's socket, and the members send
/// their next operations as they read it. A hold whose answer comes back at once (a room on
/// a memory store answers in microseconds) would start the next pass with only the operations
/// that arrived before the last one ended, and those still in the members' hands would each
/// make a pass of their own. Held for a third of the last long pass, most of them join it:
/// about a quarter fewer writes on the fixed workload of docs/benchmarks.md ("Held output"),
/// for a delay of at most 5 ms beside a pass of 15 ms or more, and no fewer fan-out clients
/// under the latency limit. Short passes (a small board, a quiet loop) are not paced at all.
///
/// A value with no clock: the loop tells it each long flush's duration and asks for the pace.
struct FlushPacing {
    /// A flush of at least this many connections is a pass worth timing.
    static let longFlush = 64
    /// The shortest pace worth a timer, and the longest a hold is paced, in nanoseconds.
    static let pace: ClosedRange<UInt64> = 100_000...5_000_000

    /// How long the last flush of `longFlush` connections or more took, in nanoseconds.
    private var lastLongFlush: UInt64 = 0

    /// Whether a flush of `connections` is timed (then `flushed` is told how long it took).
    static func times(_ connections: Int) -> Bool { connections >= longFlush }

    mutating func flushed(took nanoseconds: UInt64) {
        lastLongFlush = nanoseconds
    }

    /// How long a hold period beginning now should last at least, in nanoseconds; nil: as
    /// long as its answers take.
    var pace: UInt64? {
        let share = lastLongFlush / 3
        return share < Self.pace.lowerBound ? nil : min(share, Self.pace.upperBound)
    }
}
