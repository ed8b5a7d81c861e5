import CorkboardHub
import Dispatch
import Foundation

/// A `HubClock` whose time moves only when a test advances it: a 30 s drag timeout, a lease
/// cool-down or a membership tick is seen to lapse exactly at its deadline (and not a
/// nanosecond before), at once and without sleeping.
///
/// `advance(by:)` runs the work that falls due in time order (work due at the same deadline in
/// the order it was scheduled), each on the queue it was scheduled for and to its end before
/// the next, so the hub's confinement holds (its `dispatchPrecondition`s too) and whatever the
/// work sent is there to read when `advance` returns. Work scheduled for a deadline that has
/// passed runs at once, as `asyncAfter` would run it. Call `advance` from the test's thread,
/// never from one of the hub's queues.
///
/// Confinement: `lock` guards the time and the timers, hence `@unchecked Sendable`; the work
/// itself runs outside the lock, so it may schedule more.
public final class ManualClock: HubClock, @unchecked Sendable {
    private struct Timer {
        let deadline: UInt64
        /// Ties at one deadline run in the order they were scheduled.
        let order: Int
        let queue: DispatchQueue
        let work: @Sendable () -> Void
    }

    private let lock = NSLock()
    private var uptime: UInt64
    private let wallStart: Date
    private let uptimeStart: UInt64
    private var timers: [Timer] = []
    private var scheduled = 0

    /// A clock at `wallTime` (a token's `exp` is read against it); its uptime starts well
    /// away from zero, which Dispatch reads as "now".
    public init(wallTime: Date = Date()) {
        uptime = 1_000_000_000_000
        uptimeStart = uptime
        wallStart = wallTime
    }

    public func now() -> DispatchTime {
        lock.withLock { DispatchTime(uptimeNanoseconds: uptime) }
    }

    public func wallTime() -> Date {
        lock.withLock { wallStart.addingTimeInterval(Double(uptime - uptimeStart) / 1e9) }
    }

    public func schedule(at deadline: DispatchTime, on queue: DispatchQueue, _ work: @escaping @Sendable () -> Void) {
        let due: Bool = lock.withLock {
            guard deadline.uptimeNanoseconds > uptime else { return true }
            scheduled += 1
            timers.append(Timer(deadline: deadline.uptimeNanoseconds, order: scheduled, queue: queue, work: work))
            return false
        }
        if due { queue.async(execute: work) }
    }

    /// Moves the time on by `interval`, running what falls due on the way.
    public func advance(by interval: DispatchTimeInterval) {
        let target = (now() + interval).uptimeNanoseconds
        while let timer = takeNext(dueBy: target) {
            timer.queue.sync(execute: timer.work)
        }
        lock.withLock { uptime = max(uptime, target) }
    }

    /// How many timers wait for a later time (scheduled and not run yet).
    public var pendingCount: Int { lock.withLock { timers.count } }

    /// The earliest timer due by `target`, taken out, with the time moved to its deadline.
    private func takeNext(dueBy target: UInt64) -> Timer? {
        lock.withLock {
            guard
                let index = timers.indices.min(by: { (timers[$0].deadline, timers[$0].order) < (timers[$1].deadline, timers[$1].order) }),
                timers[index].deadline <= target
            else { return nil }
            let timer = timers.remove(at: index)
            uptime = max(uptime, timer.deadline)
            return timer
        }
    }
}
