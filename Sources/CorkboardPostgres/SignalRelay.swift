import CorkboardStore
import Synchronization

/// Where the store's signals go: the handler the hub gave `observe`, replaceable (nil once the
/// store closes) and called from the listener's queue.
///
/// The handler is kept in a class, not as a closure in the `Mutex` itself: a closure stored in
/// a `Mutex` and read with `withLock { $0 }` is written back wrapped in two more reabstraction
/// thunks at every read (Swift 6.3), so each signal cost more than the one before and the stack
/// grew by two frames per signal. `bench/cluster.sh` found it: nodes that only listened spent
/// 30–75 % of a core in those thunks, and a node up long enough would have run out of stack.
final class SignalRelay: Sendable {
    private final class Handler: Sendable {
        let call: @Sendable (StoreSignal) -> Void
        init(_ call: @escaping @Sendable (StoreSignal) -> Void) { self.call = call }
    }

    private let handler = Mutex<Handler?>(nil)

    func replace(with call: (@Sendable (StoreSignal) -> Void)?) {
        let next = call.map(Handler.init)
        handler.withLock { $0 = next }
    }

    func send(_ signal: StoreSignal) {
        handler.withLock { $0 }?.call(signal)
    }
}
