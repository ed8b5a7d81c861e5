import Foundation
import TestSupport
import Testing

/// The browser client (`web/`) in Debian's headless Chromium, driven by Playwright for Python
/// (`browser/scenarios.py`) against a real `corkboard serve` that the script starts, and
/// restarts on the same port and data folder for the reconnect scenario. The script runs once;
/// each scenario is one test case here, so a failure names its scenario, with the script's
/// message (what was expected, what the page showed, console problems, screenshots).
/// Pictures and logs go to `.build/test-output/board-browser/`.
@Suite(.serialized, .threadsOfTheirOwn) struct BoardBrowserTests {
    /// The scenarios, in the script's order; `console-clean` (no console error or warning, page
    /// error or response >= 400 on any page during the whole run) is always last.
    static let scenarios = [
        "smoke", "board-list", "presence", "pointer-drag", "held-while-dragging", "ghost-shows-count", "escape-cancels", "keyboard-move",
        "keyboard-across-and-escape", "remote-move-announced", "edit-during-remote-moves", "delete-undo", "rename-live",
        "rename-after-add-card", "add-column-focus", "screenshot", "reconnect-after-restart", "move-while-server-down", "offline-flap", "offline-quiet",
        "reload-with-pending", "holder-leaves", "drag-expires", "token-mode", "unknown-board", "touch-swipe-scrolls", "touch-hold-drags",
        "phone-edge-and-release",
        "phone-people", "phone-people-names", "animations-origin", "range-move-to", "phone-move-to-fits", "lock-confirm",
        "refused-grab-quiet", "renders-only-changes", "card-link", "long-column", "outside-drop-link", "outside-drop-text",
        "outside-drop-locked", "drag-out-to-another-board", "grip-drag-within-board", "folder-open-remembered", "folder-drop",
        "folder-stays-under-pointer", "folder-keyboard",
        "folder-delete-asks", "column-pointer-drag", "column-touch-drag", "column-keyboard-drag", "column-held-busy", "column-removed-while-carried",
        "columns-and-cards-converge",
        "column-move-to", "column-move-undo", "column-remove-with-cards", "viewer-and-refused", "axe", "set-name", "choose-colour", "editing-mark",
        "lost-edit-told", "token-name", "console-clean",
    ]

    static let outputFolder = PythonTools.packageRoot + "/.build/test-output/board-browser"

    /// Async, waiting for the shared run on a thread of its own: fifteen cases blocked on it
    /// would hold every cooperative thread for the run's half minute and starve other suites.
    @Test(.runningTimeLimit(.minutes(12)), arguments: scenarios)
    func scenario(_ name: String) async throws {
        let run = try await BlockingWork { BrowserRun.shared }.value.get()
        #expect(Set(run.results.keys) == Set(Self.scenarios), "the script's scenarios are the ones listed here")
        let result = try #require(
            run.results[name],
            """
            scenario \(name) did not run (\(run.note ?? "no note")); the script's output:
            \(PythonTools.tail(run.output, lines: 60))
            """)
        if !result.passed { Issue.record("\(name): \(result.message)") }
        if name == "screenshot", result.passed {
            print(
                "BoardBrowserTests: screenshot of the board saved to \(Self.outputFolder)/board.png "
                    + "(the demo board as page B sees page A's drag; A's own view: board-dragging.png)")
        }
    }
}

/// One run of the scenarios script, shared by the test cases. Its watchdog: the 43 scenarios
/// took 90–170 s alone here, and 38 of them 245 s beside the rest of the suite on CI; the 50
/// of now (one of them a 20 s outage) took 238 s alone on a machine shared by five builds.
extension BrowserRun {
    static let shared = BrowserRun.outcome {
        let data = try TemporaryDirectory("corkboard-browser-data")
        return try BrowserRun.perform(
            script: "scenarios.py", label: "the browser scenarios", output: BoardBrowserTests.outputFolder, log: "scenarios.log",
            arguments: ["--web-root", PythonTools.packageRoot + "/web", "--data", data.path], watchdog: 600)
    }
}
