/// Whether a loop writes at the end of its turn or waits for answers on their way back.
///
/// A member's move read in a turn goes to its board's room on another thread, and the room's
/// `committed` comes back through the loop's inbox. Written at the end of the turn, the output
/// would leave without it, and the `committed` would leave alone in the next turn: about two
/// frames per `sendmsg` in the fan-out benchmark, where uWebSockets, which reads and publishes
/// in one thread, writes three or four. Held until the answer is back, the move's broadcast
/// leaves in the same write as everything else that turn produced.
///
/// Each hold is released once (`release`), or all of them at a deadline the loop sets when the
/// first begins (`expire`): a room that never answers (it was unloaded, its store is slow)
/// holds nobody's output for longer than that. A release that comes after its hold expired
/// belongs to an earlier period and is ignored: it must not end a hold begun since.
///
/// A value with no I/O and no clock: the loop feeds it events and carries out what it answers.
struct OutputHolds {
    /// Holds begun and not yet released in the current period.
    private(set) var outstanding = 0
    /// Counts the periods: each begins with the first hold after none were outstanding.
    private var period = 0

    var isHolding: Bool { outstanding > 0 }

    /// A new hold, with the period its release must name, and whether it began that period
    /// (then the loop sets the deadline).
    mutating func begin() -> (period: Int, beginsPeriod: Bool) {
        let begins = outstanding == 0
        if begins { period &+= 1 }
        outstanding += 1
        return (period, begins)
    }

    /// The hold of `period` is released. True when that was the last one: the loop writes
    /// (unless it is in a turn, which writes at its end anyway).
    mutating func release(period: Int) -> Bool {
        guard period == self.period, outstanding > 0 else { return false }
        outstanding -= 1
        return outstanding == 0
    }

    /// The deadline passed: every hold ends. True when any was still outstanding (then the
    /// loop writes what waited).
    mutating func expire() -> Bool {
        guard outstanding > 0 else { return false }
        outstanding = 0
        return true
    }
}
