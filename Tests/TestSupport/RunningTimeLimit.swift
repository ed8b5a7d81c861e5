import Testing

/// A time limit that counts from the moment the test begins to run, for the tests of
/// `.threadsOfTheirOwn` suites: `@Test(.runningTimeLimit(.minutes(3)))`. When it passes, an issue
/// is recorded and the test is cancelled (as with `.timeLimit`; blocking work ends on its own
/// bounds).
///
/// Why not Swift Testing's `.timeLimit`: it counts from the moment the runner starts the test,
/// and the runner starts every test of the run in its first seconds. A test that then waits its
/// turn (`TestAdmission` lets a few in at a time) spends its limit waiting: on CI, fifteen
/// cluster tests queued behind the run's other thousand tests for most of their three minutes and
/// went over their limits with nothing wrong. The wait is bounded by the run (CI's own limit); the
/// running is what a test's limit is about.
public struct RunningTimeLimit: TestTrait, SuiteTrait, TestScoping {
    public let duration: Duration
    public var isRecursive: Bool { true }

    /// On a test without `.threadsOfTheirOwn` nothing would apply the limit: that test fails.
    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        testCase != nil && !test.traits.contains { $0 is ThreadsOfTheirOwn } ? self : nil
    }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        Issue.record("`.runningTimeLimit` is applied by `.threadsOfTheirOwn`, which this test lacks", sourceLocation: test.sourceLocation)
        try await function()
    }

    /// The shortest running limit among `test`'s traits (a suite's included), if any.
    static func shortest(for test: Test) -> Duration? {
        test.traits.compactMap { ($0 as? RunningTimeLimit)?.duration }.min()
    }
}

extension Trait where Self == RunningTimeLimit {
    /// Fails the test when it runs for longer than `limit` (see `RunningTimeLimit`); only on a
    /// test or suite that takes `.threadsOfTheirOwn`, which applies it.
    public static func runningTimeLimit(_ limit: RunningTimeLimit.Length) -> Self { RunningTimeLimit(duration: limit.duration) }
}

extension RunningTimeLimit {
    /// Whole minutes, as `.timeLimit` takes them: `.runningTimeLimit(.minutes(3))`.
    public struct Length: Sendable {
        let duration: Duration
        public static func minutes(_ count: Int) -> Self { Self(duration: .seconds(60 * count)) }
    }
}

extension RunningTimeLimit {
    /// Runs `body` on `thread`; records an issue against `test` and cancels it if it is still
    /// running after `limit`.
    static func enforce(
        _ limit: Duration, for test: Test, on thread: DedicatedThread, _ body: @Sendable () async throws -> Void
    ) async throws {
        try await withoutActuallyEscaping(body) { body in
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask(executorPreference: thread) { try await body() }
                group.addTask {
                    try await Task.sleep(for: limit)
                    Issue.record(
                        "Time limit was exceeded: the test ran for \(limit) (counted from when it began to run)",
                        sourceLocation: test.sourceLocation)
                }
                defer { group.cancelAll() }
                // The first to end decides: the test (its error, if any, is the test's), or the limit.
                try await group.next()
            }
        }
    }
}
