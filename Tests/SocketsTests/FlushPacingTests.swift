import Testing

@testable import Sockets

/// The pace of a loop's hold periods: a third of the last long flush, none after short ones,
/// never more than the most.
@Suite struct FlushPacingTests {
    @Test func aHoldIsPacedAtAThirdOfTheLastLongFlushWithinItsBounds() {
        var pacing = FlushPacing()
        #expect(pacing.pace == nil, "no flush yet: not paced")
        pacing.flushed(took: 12_000_000)
        #expect(pacing.pace == 4_000_000)
        pacing.flushed(took: 60_000_000)
        #expect(pacing.pace == FlushPacing.pace.upperBound, "a long pass paces at most 5 ms")
        pacing.flushed(took: 270_000)
        #expect(pacing.pace == nil, "a pass under 0.3 ms is not worth a timer")
    }

    @Test func onlyFlushesOfManyConnectionsAreTimed() {
        #expect(!FlushPacing.times(1))
        #expect(!FlushPacing.times(FlushPacing.longFlush - 1))
        #expect(FlushPacing.times(FlushPacing.longFlush))
    }
}
