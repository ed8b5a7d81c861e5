import Foundation

/// Blocking work on a thread of its own, started at once. A `Task`, or a block on a global
/// queue, may wait for a free worker first; in a full parallel run the other suites' blocking
/// tests can hold every one of them for minutes, while the client under test times out
/// waiting for a script that has not begun.
public final class BlockingWork<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var result: Result<T, Error>?
    private var waiter: CheckedContinuation<T, Error>?

    public init(_ work: @escaping @Sendable () throws -> T) {
        Thread { self.finish(Result { try work() }) }.start()
    }

    private func finish(_ outcome: Result<T, Error>) {
        lock.lock()
        guard let waiter else {
            result = outcome
            return lock.unlock()
        }
        self.waiter = nil
        lock.unlock()
        waiter.resume(with: outcome)
    }

    /// The work's result, once it has finished.
    public var value: T {
        get async throws {
            try await withCheckedThrowingContinuation { continuation in
                lock.lock()
                if let result {
                    lock.unlock()
                    continuation.resume(with: result)
                } else {
                    waiter = continuation
                    lock.unlock()
                }
            }
        }
    }
}

/// Runs blocking work (sockets, a fake server's script, a child process) on a thread of its
/// own, so it never holds one of the few threads the tasks it waits for need.
public func offPool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await BlockingWork(work).value
}

/// Hands a value that is not Sendable (a child process) across to or from `BlockingWork`
/// when only one side uses it at a time.
public struct UncheckedSendable<Value>: @unchecked Sendable {
    public let value: Value
    public init(_ value: Value) { self.value = value }
}
