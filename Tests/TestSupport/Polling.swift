import Foundation

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
