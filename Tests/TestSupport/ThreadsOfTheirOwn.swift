import Foundation
import Testing

/// A suite trait that runs every test of the suite on threads of the test run's own, off
/// Swift's cooperative pool: `@Suite(.threadsOfTheirOwn)`.
///
/// Why: the cooperative pool has one thread per core, two on CI. A synchronous test that waits
/// on a socket, a child process, a database or a lock holds one of them for as long as it waits,
/// and every other test in the run, however quick, waits behind it (a time limit counts that
/// wait too). On CI, two tests waiting for the release build of the conformance server held
/// both threads for 106 s, and two unrelated tests went over their time limits.
///
/// Every suite whose tests block (sockets, child processes, databases, sleeps) takes the trait;
/// pure suites (parsers, the model) stay on the pool.
public struct ThreadsOfTheirOwn: SuiteTrait, TestTrait, TestScoping {
    public var isRecursive: Bool { true }

    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        testCase == nil ? nil : self
    }

    public func provideScope(
        for test: Test, testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        try await withTaskExecutorPreference(BlockingTestExecutor.shared) { try await function() }
    }
}

extension Trait where Self == ThreadsOfTheirOwn {
    /// Runs the suite's tests off the cooperative pool (see `ThreadsOfTheirOwn`).
    public static var threadsOfTheirOwn: Self { ThreadsOfTheirOwn() }
}

/// A fixed set of threads that run jobs in the order they come. Bounded, so that a run does
/// not start every socket test at once (on a loaded machine their timeouts would start to
/// fire): two per core, at least four.
final class BlockingTestExecutor: TaskExecutor, @unchecked Sendable {
    static let shared = BlockingTestExecutor(threads: max(4, 2 * ProcessInfo.processInfo.activeProcessorCount))

    private let ready = NSCondition()
    private var jobs: [UnownedJob] = [] // guarded by `ready`

    private init(threads: Int) {
        for index in 0..<threads {
            let thread = Thread { [self] in runJobsForever() }
            thread.name = "blocking-tests-\(index)"
            thread.start()
        }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        ready.lock()
        jobs.append(job)
        ready.signal()
        ready.unlock()
    }

    private func runJobsForever() {
        while true {
            ready.lock()
            while jobs.isEmpty { ready.wait() }
            let job = jobs.removeFirst()
            ready.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
