import Dispatch

/// Something a loop checks periodically: liveness, deadlines.
public protocol LoopTickable: AnyObject {
    /// Called on the loop at least as often as the interval it was added with.
    func loopDidTick(now: DispatchTime)
}

/// One timer per loop for every object on it that needs periodic checks. A timer per
/// connection (a dispatch source with its handler blocks, some 600 bytes) was a large part of
/// an idle WebSocket's memory, and checking a few thousand deadlines on one tick costs
/// microseconds. The timer runs at the shortest interval asked for, and only while someone
/// is registered; an object may be called more often than it asked, so checks compare times.
///
/// Confinement: used only on its loop's queue, hence `@unchecked Sendable`.
final class LoopTicker: @unchecked Sendable {
    private let queue: DispatchQueue
    private let clock: any LoopClock
    private var entries: [ObjectIdentifier: (object: LoopTickable, interval: UInt64)] = [:]
    /// How many entries asked for each interval (in nanoseconds), to find the shortest one.
    private var intervals: [UInt64: Int] = [:]
    private var timer: LoopTimer?
    private var timerInterval: UInt64 = 0

    init(queue: DispatchQueue, clock: any LoopClock) {
        self.queue = queue
        self.clock = clock
    }

    func add(_ object: LoopTickable, every interval: DispatchTimeInterval) {
        let nanoseconds = max(1_000_000, interval.nanoseconds)
        let id = ObjectIdentifier(object)
        if let previous = entries[id] { forget(interval: previous.interval) }
        entries[id] = (object, nanoseconds)
        intervals[nanoseconds, default: 0] += 1
        retime()
    }

    func remove(_ object: LoopTickable) {
        guard let entry = entries.removeValue(forKey: ObjectIdentifier(object)) else { return }
        forget(interval: entry.interval)
        retime()
    }

    private func forget(interval: UInt64) {
        intervals[interval, default: 1] -= 1
        if intervals[interval] == 0 { intervals.removeValue(forKey: interval) }
    }

    /// Runs the timer at the shortest interval wanted, or stops it when nobody is left.
    private func retime() {
        guard let shortest = intervals.keys.min() else {
            timer?.cancel()
            timer = nil
            timerInterval = 0
            return
        }
        guard shortest != timerInterval else { return }
        timerInterval = shortest
        let interval = DispatchTimeInterval.nanoseconds(Int(shortest))
        // The ticker lives as long as its loop; the handler need not keep it.
        let timer = self.timer ?? clock.makeTimer(queue: queue) { [unowned self] in tick() }
        timer.schedule(at: clock.now + interval, repeating: interval, leeway: .nanoseconds(Int(shortest / 10)))
        self.timer = timer
    }

    private func tick() {
        let now = clock.now
        // A check may add or remove entries (a connection closing): call a snapshot.
        for entry in Array(entries.values) { entry.object.loopDidTick(now: now) }
    }
}

extension DispatchTimeInterval {
    /// The interval in nanoseconds (`.never`: a day).
    public var nanoseconds: UInt64 {
        switch self {
        case .seconds(let value): UInt64(max(0, value)) * 1_000_000_000
        case .milliseconds(let value): UInt64(max(0, value)) * 1_000_000
        case .microseconds(let value): UInt64(max(0, value)) * 1_000
        case .nanoseconds(let value): UInt64(max(0, value))
        default: 86_400_000_000_000
        }
    }
}

extension IOLoop {
    /// Calls `object.loopDidTick` on this loop at least every `interval`, until `stopTicking`.
    /// The loop holds `object` strongly meanwhile. On the loop only.
    public func startTicking(_ object: LoopTickable, every interval: DispatchTimeInterval) {
        precondition(isCurrent)
        ticker.add(object, every: interval)
    }

    /// On the loop only.
    public func stopTicking(_ object: LoopTickable) {
        precondition(isCurrent)
        ticker.remove(object)
    }
}
