import Dispatch
import Synchronization
import TestSupport
import Testing

@testable import Sockets

/// The loop's ticker on a `ManualLoopClock`: which objects it calls, when, and with what time.
@Suite struct LoopTickerTests {
    /// Records the instants it was called at, as seconds after the clock's start.
    private final class Recorder: LoopTickable, Sendable {
        private let start: DispatchTime
        private let calls = Mutex<[Double]>([])

        init(start: DispatchTime) { self.start = start }

        func loopDidTick(now: DispatchTime) {
            let seconds = Double(now.uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
            calls.withLock { $0.append(seconds) }
        }

        var ticks: [Double] { calls.withLock { $0 } }
    }

    private let clock = ManualLoopClock()
    private let queue = DispatchQueue(label: "loop-ticker-test")

    /// A ticker with one object asking every 2 s and one every second.
    private func tickerWithSlowAndFast() -> (LoopTicker, slow: Recorder, fast: Recorder) {
        let ticker = LoopTicker(queue: queue, clock: clock)
        let slow = Recorder(start: clock.now)
        let fast = Recorder(start: clock.now)
        queue.sync {
            ticker.add(slow, every: .seconds(2))
            ticker.add(fast, every: .seconds(1))
        }
        return (ticker, slow, fast)
    }

    @Test func everyObjectIsCalledAtTheShortestIntervalAskedWithTheTickTime() {
        let (ticker, slow, fast) = tickerWithSlowAndFast()
        clock.advance(by: .seconds(3))
        #expect(fast.ticks == [1, 2, 3])
        #expect(slow.ticks == [1, 2, 3], "called more often than it asked: checks compare times")
    }

    @Test func theTimerFollowsWhoIsLeftAndStopsWithTheLast() {
        let (ticker, slow, fast) = tickerWithSlowAndFast()
        clock.advance(by: .seconds(1))
        queue.sync { ticker.remove(fast) }
        clock.advance(by: .seconds(4))
        #expect(fast.ticks == [1])
        #expect(slow.ticks == [1, 3, 5], "retimed to 2 s from the removal on")
        queue.sync { ticker.remove(slow) }
        #expect(clock.armedTimerCount == 0)
        clock.advance(by: .seconds(10))
        #expect(slow.ticks == [1, 3, 5])
    }

    @Test func addingAgainReplacesTheObjectsInterval() {
        let ticker = LoopTicker(queue: queue, clock: clock)
        let object = Recorder(start: clock.now)
        queue.sync { ticker.add(object, every: .seconds(5)) }
        clock.advance(by: .seconds(1))
        queue.sync { ticker.add(object, every: .milliseconds(500)) }
        clock.advance(by: .seconds(1))
        #expect(object.ticks == [1.5, 2])
        queue.sync { ticker.remove(object) }
    }
}
