import Testing

@testable import Sockets

/// The bookkeeping of a loop's held output, with no loop: holds begin and end, a deadline ends
/// them all, and a release from before the deadline never ends a hold begun after it.
@Suite struct OutputHoldsTests {
    @Test func theFirstHoldBeginsAPeriodAndTheLastReleaseEndsIt() {
        var holds = OutputHolds()
        let first = holds.begin()
        let second = holds.begin()
        #expect(first.beginsPeriod && !second.beginsPeriod)
        #expect(first.period == second.period)
        let firstEnded = holds.release(period: first.period)
        #expect(!firstEnded && holds.isHolding, "one hold is still out")
        let secondEnded = holds.release(period: second.period)
        #expect(secondEnded && !holds.isHolding, "the last release ends the hold")
        let extraEnded = holds.release(period: second.period)
        #expect(!extraEnded, "a release more than the holds is ignored")
        let next = holds.begin()
        #expect(next.beginsPeriod && next.period != first.period, "the next hold begins a new period")
    }

    @Test func theDeadlineEndsEveryHoldAndLateReleasesAreIgnored() {
        var holds = OutputHolds()
        let expired = holds.begin()
        _ = holds.begin()
        let wroteAtDeadline = holds.expire()
        #expect(wroteAtDeadline && !holds.isHolding, "something was held: the loop writes")
        let wroteAgain = holds.expire()
        #expect(!wroteAgain, "nothing held: nothing to write")
        let current = holds.begin()
        #expect(current.beginsPeriod && current.period != expired.period)
        let staleEnded = holds.release(period: expired.period)
        #expect(!staleEnded && holds.isHolding, "a release from the expired period ends nothing begun since")
        let currentEnded = holds.release(period: current.period)
        #expect(currentEnded)
    }
}
