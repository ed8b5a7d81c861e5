import Dispatch
import Foundation

/// The hub's time: what it reads as now, and how it runs work later. Every deadline the hub
/// keeps goes through it — drag timeouts and expiry, the pacing of `drag.over`, a batching
/// board's drag tick, lease cool-downs, membership ticks, the wait for other nodes' lists and
/// their liveness — so that one injected clock (`HubConfiguration.clock`) decides them all.
/// The server runs on `DispatchClock`; the hub's tests run on a clock whose time they advance
/// (`ManualClock` in Tests/HubTestSupport), and see a 30 s timeout lapse exactly, without waiting.
///
/// What a clock promises: `now` never goes back; `schedule` runs `work` once, on `queue` (so
/// the work keeps the confinement of whatever it touches), not before `deadline`, and work
/// due at the same deadline in the order it was scheduled. Nothing scheduled is cancelled:
/// the hub's timers check, when they fire, that what they were for is still current (a drag's
/// generation, a tick's flag), which costs less than keeping a handle per timer.
public protocol HubClock: Sendable {
    /// Now, on the monotonic clock every hub deadline is measured against.
    func now() -> DispatchTime

    /// Now, on the wall clock: a token's `exp` is a wall-clock time.
    func wallTime() -> Date

    /// Runs `work` on `queue` once `deadline` has come (soon, after what `queue` already
    /// holds, when it has passed).
    func schedule(at deadline: DispatchTime, on queue: DispatchQueue, _ work: @escaping @Sendable () -> Void)
}

extension HubClock {
    /// Runs `work` on `queue` after `delay` from now.
    public func schedule(after delay: DispatchTimeInterval, on queue: DispatchQueue, _ work: @escaping @Sendable () -> Void) {
        schedule(at: now() + delay, on: queue, work)
    }
}

/// The real clock: Dispatch's uptime clock, `Date`, and `asyncAfter`.
public struct DispatchClock: HubClock {
    public init() {}

    public func now() -> DispatchTime { .now() }

    public func wallTime() -> Date { Date() }

    public func schedule(at deadline: DispatchTime, on queue: DispatchQueue, _ work: @escaping @Sendable () -> Void) {
        queue.asyncAfter(deadline: deadline, execute: work)
    }
}
