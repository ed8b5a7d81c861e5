import Dispatch
import Sockets
import Synchronization

/// A `LoopClock` whose time moves only when a test moves it: `advance(by:)` fires every timer
/// that falls due on the way, in the order of their deadlines (and of their making, at the same
/// instant), each on its loop's queue with `now` at its deadline, waiting for it to run. What
/// the loops do besides (reads, writes) happens in real time, as usual.
///
/// Advance from the test's own thread, never from a loop: a loop would wait for itself.
public final class ManualLoopClock: LoopClock {
    private struct Armed {
        let timer: ManualTimer
        var deadline: DispatchTime
        var interval: UInt64?
    }

    private struct State {
        var now: DispatchTime
        var armed: [ObjectIdentifier: Armed] = [:]
        var made = 0
    }

    private let state: Mutex<State>

    /// Starts at `start` (an arbitrary instant well after zero, which Dispatch reads as "now").
    public init(start: DispatchTime = DispatchTime(uptimeNanoseconds: 1_000_000_000_000)) {
        state = Mutex(State(now: start))
    }

    public var now: DispatchTime { state.withLock { $0.now } }

    public func makeTimer(queue: DispatchQueue, handler: @escaping @Sendable () -> Void) -> LoopTimer {
        let order = state.withLock { state -> Int in
            state.made += 1
            return state.made
        }
        return ManualTimer(clock: self, queue: queue, order: order, handler: handler)
    }

    /// Moves time forward by `interval`, firing what falls due on the way.
    public func advance(by interval: DispatchTimeInterval) {
        let target = now + interval
        while let due = nextDue(until: target) { due.queue.sync { due.fire() } }
        state.withLock { $0.now = max($0.now, target) }
    }

    /// Timers armed now, for a test that checks a deadline was set or dropped.
    public var armedTimerCount: Int { state.withLock { $0.armed.count } }

    /// The earliest timer due by `target`, with the clock moved to its deadline and the timer
    /// moved to its next one (or disarmed).
    private func nextDue(until target: DispatchTime) -> ManualTimer? {
        state.withLock { state -> ManualTimer? in
            let due = state.armed.values.filter { $0.deadline <= target }
            guard let first = due.min(by: { ($0.deadline, $0.timer.order) < ($1.deadline, $1.timer.order) }) else { return nil }
            let id = ObjectIdentifier(first.timer)
            state.now = max(state.now, first.deadline)
            if let interval = first.interval {
                state.armed[id]?.deadline = first.deadline + .nanoseconds(Int(interval))
            } else {
                state.armed.removeValue(forKey: id)
            }
            return first.timer
        }
    }

    fileprivate func arm(_ timer: ManualTimer, at deadline: DispatchTime, every interval: DispatchTimeInterval?) {
        state.withLock { $0.armed[ObjectIdentifier(timer)] = Armed(timer: timer, deadline: deadline, interval: interval?.nanoseconds) }
    }

    fileprivate func disarm(_ timer: ManualTimer) {
        _ = state.withLock { $0.armed.removeValue(forKey: ObjectIdentifier(timer)) }
    }
}

/// A timer of a `ManualLoopClock`: its schedule lives in the clock. Cancelling it lets go of
/// its handler, as a Dispatch source does (a handler may hold what holds the timer).
private final class ManualTimer: LoopTimer, Sendable {
    let queue: DispatchQueue
    let order: Int
    private let clock: ManualLoopClock
    private let handler: Mutex<(@Sendable () -> Void)?>

    init(clock: ManualLoopClock, queue: DispatchQueue, order: Int, handler: @escaping @Sendable () -> Void) {
        self.clock = clock
        self.queue = queue
        self.order = order
        self.handler = Mutex(handler)
    }

    /// On the timer's queue: a timer cancelled after it fell due does not fire.
    func fire() {
        handler.withLock { $0 }?()
    }

    func schedule(at deadline: DispatchTime, repeating interval: DispatchTimeInterval?, leeway: DispatchTimeInterval) {
        guard handler.withLock({ $0 != nil }) else { return }
        clock.arm(self, at: deadline, every: interval)
    }

    func cancel() {
        handler.withLock { $0 = nil }
        clock.disarm(self)
    }
}
