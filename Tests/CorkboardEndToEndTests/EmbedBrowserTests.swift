import Foundation
import TestSupport
import Testing

/// The SDK's list binding (`web/sdk/live-list.js`) in `examples/embed/`, a page that is not the
/// board app, served from a second loopback origin: `browser/embed.py` starts `corkboard serve
/// --allowed-origins` for that origin and a static server for the example, opens two pages in
/// Debian's Chromium (Playwright) and reorders one list by pointer and by keyboard. The script
/// runs once; each of its checks is a test case here. Pictures and logs go to
/// `.build/test-output/embed-browser/`.
@Suite(.serialized, .threadsOfTheirOwn) struct EmbedBrowserTests {
    /// The script's checks, in its order; `console-clean` (no console error or warning, page
    /// error or response >= 400 on either page during the run) is last.
    static let checks = [
        "loads", "pointer-reorder", "keyboard-reorder", "keyboard-escape", "remote-update", "destroy", "touch", "touch-handle", "autoscroll-escape",
        "unlisted-origin", "console-clean",
    ]

    static let outputFolder = PythonTools.packageRoot + "/.build/test-output/embed-browser"

    @Test(.runningTimeLimit(.minutes(8)), arguments: checks)
    func check(_ name: String) async throws {
        try await BlockingWork { EmbedRun.shared }.value.get().expect(name, listed: Self.checks)
    }
}

/// One run of `browser/embed.py`, shared by the test cases.
enum EmbedRun {
    static let shared = BrowserRun.outcome {
        let data = try TemporaryDirectory("corkboard-embed-data")
        let root = PythonTools.packageRoot
        return try BrowserRun.perform(
            script: "embed.py", label: "the embed checks", output: EmbedBrowserTests.outputFolder, log: "embed.log",
            arguments: ["--web-root", root + "/web", "--example", root + "/examples/embed", "--data", data.path], watchdog: 120)
    }
}
