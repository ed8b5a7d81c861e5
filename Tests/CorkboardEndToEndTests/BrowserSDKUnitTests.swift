import Foundation
import TestSupport
import Testing

/// The browser SDK's unit tests (`Tests/sdk/*.test.js`: the replica, pending operations and
/// their rollback, reconnect and backoff, storage, the ping's deadline) run in Node with a fake
/// WebSocket, fake timers and an in-memory storage. This suite runs them with `node --test`, so
/// `swift test` fails with node's report when one fails. Node comes with node-typescript
/// (`.ci/run` installs it); without it the suite fails, saying so, rather than skip.
@Suite(.threadsOfTheirOwn) struct BrowserSDKUnitTests {
    @Test(.runningTimeLimit(.minutes(5)))
    func theSDKUnitTestsPass() throws {
        guard let node = PythonTools.executableOnPath("node") ?? PythonTools.executableOnPath("nodejs") else {
            Issue.record("no node on PATH: the SDK's unit tests run in Node; install it with apt-get install -y nodejs (node-typescript pulls it)")
            return
        }
        let outcome = try PythonTools.run(
            node, ["--test", "Tests/sdk/"], workingDirectory: PythonTools.packageRoot, timeout: 240)
        let report = outcome.standardOutput + outcome.standardError
        #expect(outcome.succeeded, "node --test Tests/sdk/ failed (exit \(outcome.status)):\n\(PythonTools.tail(report, lines: 120))")
        // node prints "# pass N": a run that found no test files passes with 0, which must not.
        let passed = report.split(separator: "\n").first { $0.hasPrefix("# pass ") }.flatMap { Int($0.dropFirst(7)) } ?? 0
        #expect(passed >= 20, "node --test Tests/sdk/ ran \(passed) tests; the SDK has more:\n\(PythonTools.tail(report))")
    }
}
