import Synchronization

/// A fixed set of loops, about one per core; new connections are spread over them round-robin.
/// Their timers run on `clock`: the system's, or a test's that it advances by hand.
public final class IOLoopGroup: Sendable {
    public let loops: [IOLoop]
    private let nextIndex = Atomic<Int>(0)

    public init(count: Int = System.coreCount, readBufferSize: Int = 64 * 1024, clock: any LoopClock = SystemLoopClock()) {
        loops = (0..<max(1, count)).map { IOLoop(index: $0, readBufferSize: readBufferSize, clock: clock) }
    }

    public func next() -> IOLoop {
        let value = nextIndex.add(1, ordering: .relaxed).oldValue
        return loops[value % loops.count]
    }
}
