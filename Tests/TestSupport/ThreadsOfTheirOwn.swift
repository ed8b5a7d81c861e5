import Foundation
import Testing

/// A suite trait that runs every test of the suite on a thread of its own, off Swift's
/// cooperative pool, a few tests at a time: `@Suite(.threadsOfTheirOwn)`.
///
/// Why: the cooperative pool has one thread per core, two on CI. A synchronous test that waits
/// on a socket, a child process, a database or a lock holds one of them for as long as it waits,
/// and every other test in the run, however quick, waits behind it (a time limit counts that
/// wait too). On CI, two tests waiting for the release build of the conformance server held
/// both threads for 106 s, and two unrelated tests went over their time limits.
///
/// Why a thread per test, not a shared few: a test that had begun, awaited work elsewhere and
/// was ready to go on queued behind whatever held the shared threads. On a fresh CI machine the
/// browser suites and the Python tools' installs held all four of them for three minutes, and
/// fifteen cluster tests whose nodes had long finished went over their time limits waiting to
/// be resumed. A test's own thread is free whenever its test is ready to run.
///
/// Every suite whose tests block (sockets, child processes, databases, sleeps) takes the trait;
/// pure suites (parsers, the model) stay on the pool. Their time limits are
/// `.runningTimeLimit`s, which this trait applies once the test is let in.
public struct ThreadsOfTheirOwn: SuiteTrait, TestTrait, TestScoping {
    public var isRecursive: Bool { true }

    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        testCase == nil ? nil : self
    }

    public func provideScope(
        for test: Test, testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        await TestAdmission.shared.enter()
        defer { TestAdmission.shared.leave() }
        let thread = DedicatedThread()
        defer { thread.close() }
        if let limit = RunningTimeLimit.shortest(for: test) {
            try await RunningTimeLimit.enforce(limit, for: test, on: thread, function)
        } else {
            try await withTaskExecutorPreference(thread) { try await function() }
        }
    }
}

extension Trait where Self == ThreadsOfTheirOwn {
    /// Runs the suite's tests off the cooperative pool (see `ThreadsOfTheirOwn`).
    public static var threadsOfTheirOwn: Self { ThreadsOfTheirOwn() }
}
