import Foundation
import Synchronization

/// Waits until `condition` holds, checking every 10 ms, for at most `timeout` seconds.
/// Returns whether it held: tests assert on that, so a broken behaviour fails instead of hanging.
public func eventually(timeout: Double = 5, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if try condition() { return true }
        usleep(10_000)
    }
    return try condition()
}

/// Calls an asynchronous method that answers through a completion (a store's calls) and waits
/// for its answer, at most `timeout` seconds: past that the test process stops with a message
/// rather than hanging.
public func wait<T: Sendable>(timeout: Double = 15, _ call: (@escaping @Sendable (T) -> Void) -> Void) -> T {
    let box = Mutex<T?>(nil)
    let done = DispatchSemaphore(value: 0)
    call { value in
        box.withLock { $0 = value }
        done.signal()
    }
    precondition(done.wait(timeout: .now() + timeout) == .success, "no answer within \(timeout) s")
    return box.withLock { $0! }
}
