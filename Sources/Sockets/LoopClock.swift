import Dispatch

/// Where the I/O loops take their time from, and how they wait for it: the seam that lets a
/// test advance time instead of sleeping. `SystemLoopClock` is the real one (Dispatch timers
/// on the monotonic clock); a test gives its loops a manual one (`ManualLoopClock` in the
/// tests' support module) and moves it forward.
///
/// An `IOLoopGroup` is given one, and everything timed on a loop takes it from there
/// (`IOLoop.clock`): the loop's ticker and the instants its objects compare (WebSocket
/// liveness and closing handshakes, the hello deadline), an HTTP connection's deadlines, a
/// connection's lingering close.
public protocol LoopClock: Sendable {
    /// The current instant.
    var now: DispatchTime { get }

    /// A timer that calls `handler` on `queue` each time it fires. It fires only once scheduled.
    func makeTimer(queue: DispatchQueue, handler: @escaping @Sendable () -> Void) -> LoopTimer
}

/// A timer of a `LoopClock`, used on its queue only. Its handler is released when it is cancelled.
public protocol LoopTimer: AnyObject {
    /// Fires at `deadline`, then every `interval` if one is given, replacing any earlier
    /// schedule; `leeway` is how late it may fire to save wake-ups.
    func schedule(at deadline: DispatchTime, repeating interval: DispatchTimeInterval?, leeway: DispatchTimeInterval)

    /// Never fires again.
    func cancel()
}

extension LoopTimer {
    /// Fires once at `deadline`, replacing any earlier schedule.
    public func schedule(at deadline: DispatchTime) {
        schedule(at: deadline, repeating: nil, leeway: .nanoseconds(0))
    }
}

/// The real clock: `DispatchTime.now()` and Dispatch timer sources.
public struct SystemLoopClock: LoopClock {
    public init() {}

    public var now: DispatchTime { .now() }

    public func makeTimer(queue: DispatchQueue, handler: @escaping @Sendable () -> Void) -> LoopTimer {
        DispatchLoopTimer(queue: queue, handler: handler)
    }
}

/// A Dispatch timer source, resumed once at birth (an over-resumed source is a crash) and
/// parked in the distant future until scheduled.
final class DispatchLoopTimer: LoopTimer {
    private let source: DispatchSourceTimer

    init(queue: DispatchQueue, handler: @escaping @Sendable () -> Void) {
        source = DispatchSource.makeTimerSource(queue: queue)
        source.setEventHandler(handler: handler)
        source.schedule(deadline: .distantFuture)
        source.resume()
    }

    func schedule(at deadline: DispatchTime, repeating interval: DispatchTimeInterval?, leeway: DispatchTimeInterval) {
        if let interval {
            source.schedule(deadline: deadline, repeating: interval, leeway: leeway)
        } else {
            source.schedule(deadline: deadline, leeway: leeway)
        }
    }

    func cancel() { source.cancel() }

    /// A source released uncancelled would go on firing for nobody.
    deinit { source.cancel() }
}
