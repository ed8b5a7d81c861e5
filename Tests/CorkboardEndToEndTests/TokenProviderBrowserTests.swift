import Foundation
import TestSupport
import Testing

/// A page of an app of its own with the SDK's `getToken` (docs/security.md#the-tokens-life-in-a-page),
/// in Debian's Chromium through Playwright: `browser/token_provider.py` runs the app's backend
/// (the page and a /token endpoint minting signed tokens) on a second origin beside a real
/// `corkboard serve --token-secret-file`. Its checks: a token refreshed over the open socket
/// keeps the page on its first connection past the moment the server would have closed it, a
/// server restart is met with a new token and the move made meanwhile commits, a revoked user's
/// page is refused and stays so, and no console problem. Each check is a test case here;
/// pictures and logs go to `.build/test-output/token-browser/`.
@Suite(.serialized, .threadsOfTheirOwn) struct TokenProviderBrowserTests {
    static let checks = ["refresh", "restart", "revoked", "console-clean"]

    static let outputFolder = PythonTools.packageRoot + "/.build/test-output/token-browser"

    @Test(.runningTimeLimit(.minutes(8)), arguments: checks)
    func check(_ name: String) async throws {
        try await BlockingWork { TokenProviderRun.shared }.value.get().expect(name, listed: Self.checks)
    }
}

/// One run of `browser/token_provider.py`, shared by the test cases.
enum TokenProviderRun {
    static let shared = BrowserRun.outcome {
        let data = try TemporaryDirectory("corkboard-token-browser-data")
        return try BrowserRun.perform(
            script: "token_provider.py", label: "the token provider checks", output: TokenProviderBrowserTests.outputFolder,
            log: "token.log", arguments: ["--web-root", PythonTools.packageRoot + "/web", "--data", data.path], watchdog: 120)
    }
}
