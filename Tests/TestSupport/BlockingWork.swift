import Foundation

/// Blocking work on a thread of its own, started at once. A `Task`, or a block on a global
/// queue, may wait for a free worker first; in a full parallel run the other suites' blocking
/// tests can hold every one of them for minutes, while the client under test times out
/// waiting for a script that has not begun.
///
/// The work runs as a task (on a `DedicatedThread`), not on a bare `Thread`, so that it
/// inherits the test's task-locals: an `#expect` that fails inside it is recorded against the
/// test that started it. On a bare thread Swift Testing reports it as "Test «unknown» recorded
/// an issue" and the test itself as passed, which left a failed CI run naming no test.
public final class BlockingWork<T: Sendable>: Sendable {
    private let task: Task<T, Error>

    public init(_ work: @escaping @Sendable () throws -> T) {
        let thread = DedicatedThread()
        task = Task(executorPreference: thread) {
            defer { thread.close() }
            return try work()
        }
    }

    /// The work's result, once it has finished.
    public var value: T {
        get async throws { try await task.value }
    }
}

/// A thread that runs the jobs of one task (with its child tasks: `BlockingWork`'s, or a test's
/// under `.threadsOfTheirOwn`), started at once, and ends when closed.
final class DedicatedThread: TaskExecutor, @unchecked Sendable {
    private let ready = NSCondition()
    private var jobs: [UnownedJob] = [] // guarded by `ready`
    private var closed = false // guarded by `ready`

    init() {
        Thread { [self] in runJobsUntilClosed() }.start()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        ready.lock()
        jobs.append(job)
        ready.signal()
        ready.unlock()
    }

    /// Lets the thread end once it has run the jobs it was given.
    func close() {
        ready.lock()
        closed = true
        ready.signal()
        ready.unlock()
    }

    private func runJobsUntilClosed() {
        while true {
            ready.lock()
            while jobs.isEmpty && !closed { ready.wait() }
            guard !jobs.isEmpty else { return ready.unlock() }
            let job = jobs.removeFirst()
            ready.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
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
