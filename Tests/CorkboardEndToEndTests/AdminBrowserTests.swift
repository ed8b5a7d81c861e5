import Foundation
import TestSupport
import Testing

/// The operator's page (`/admin`) in Debian's Chromium through Playwright (`browser/admin.py`)
/// against a real `corkboard serve` with signed tokens: an editor is refused with a clear
/// message; an owner sees the demo board with a member another browser has open on it, drains
/// the node and takes the drain back (the member sent away joins again), revokes that member's
/// user and sees them gone, and withdraws the revocation; the page fits a phone; the webhooks
/// section lists the webhooks made through the API, the failing one marked; and no page logs a
/// console problem.
/// Each check is a test case here; pictures and logs go to `.build/test-output/admin-browser/`.
@Suite(.serialized, .threadsOfTheirOwn) struct AdminBrowserTests {
    static let checks = ["editor-refused", "member-online", "drain", "revoke", "phone", "webhooks", "console-clean"]

    static let outputFolder = PythonTools.packageRoot + "/.build/test-output/admin-browser"

    @Test(.runningTimeLimit(.minutes(8)), arguments: checks)
    func check(_ name: String) async throws {
        try await BlockingWork { AdminBrowserRun.shared }.value.get().expect(name, listed: Self.checks)
    }
}

/// One run of `browser/admin.py`, shared by the test cases.
enum AdminBrowserRun {
    static let shared = BrowserRun.outcome {
        let data = try TemporaryDirectory("corkboard-admin-browser-data")
        return try BrowserRun.perform(
            script: "admin.py", label: "the admin page checks", output: AdminBrowserTests.outputFolder,
            log: "admin.log", arguments: ["--web-root", PythonTools.packageRoot + "/web", "--data", data.path], watchdog: 120)
    }
}
