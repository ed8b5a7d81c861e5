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
        "smoke", "board-list", "presence", "pointer-drag", "held-while-dragging", "escape-cancels", "keyboard-move",
        "keyboard-across-and-escape", "remote-move-announced", "screenshot", "reconnect-after-restart", "move-while-server-down",
        "offline-flap", "reload-with-pending", "holder-leaves", "drag-expires", "token-mode", "unknown-board", "console-clean",
    ]

    static let outputFolder = PythonTools.packageRoot + "/.build/test-output/board-browser"

    /// Async, waiting for the shared run on a thread of its own: fifteen cases blocked on it
    /// would hold every cooperative thread for the run's half minute and starve other suites.
    @Test(.timeLimit(.minutes(12)), arguments: scenarios)
    func scenario(_ name: String) async throws {
        let run = try await BlockingWork { BrowserRun.shared }.value.get()
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

/// One run of the scenarios script, shared by the test cases.
struct BrowserRun: Sendable {
    struct Result: Sendable {
        let passed: Bool
        let message: String
    }

    let results: [String: Result]
    let note: String?
    let output: String

    static let shared: Swift.Result<BrowserRun, PythonTools.Failure> = {
        do { return .success(try BrowserRun.perform()) } catch let failure as PythonTools.Failure {
            return .failure(failure)
        } catch {
            return .failure(PythonTools.Failure("\(error)"))
        }
    }()

    /// Installs Playwright if needed (bounded on its own), then runs the script with a time limit:
    /// each Playwright wait in it has its own timeout, and a watchdog stops it first.
    static func perform() throws -> BrowserRun {
        let python = try PlaywrightTools.python()
        let script = PythonTools.packageRoot + "/Tests/CorkboardServerTests/browser/scenarios.py"
        let output = BoardBrowserTests.outputFolder
        if FileManager.default.fileExists(atPath: output) { try FileManager.default.removeItem(atPath: output) }
        try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        let data = try TemporaryDirectory("corkboard-browser-data")
        let started = Date()
        let outcome = try python.run(
            [
                script, "--corkboard", ServerProcess.executablePath,
                "--web-root", PythonTools.packageRoot + "/web", "--data", data.path,
                "--output", output, "--watchdog", "200",
            ], timeout: 180)
        // The summary line repeats summary.json; people read the rest.
        let lines = outcome.standardOutput.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix("BROWSER-SUMMARY ") }.joined(separator: "\n")
        let text = lines + (outcome.standardError.isEmpty ? "" : "\n--- stderr:\n" + outcome.standardError)
        try? text.write(toFile: output + "/scenarios.log", atomically: true, encoding: .utf8)
        print(
            "BoardBrowserTests: the browser scenarios ran in \(PythonTools.seconds(since: started)) (exit \(outcome.status)); "
                + "output in \(output)/scenarios.log")
        if !outcome.succeeded { print(PythonTools.tail(text, lines: 200)) }

        guard let data = try? Data(contentsOf: URL(fileURLWithPath: output + "/summary.json")),
            let summary = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let scenarios = summary["scenarios"] as? [[String: Any]]
        else {
            throw PythonTools.Failure("the browser scenarios left no summary (exit \(outcome.status)):\n\(PythonTools.tail(text, lines: 60))")
        }
        var results: [String: Result] = [:]
        for entry in scenarios {
            guard let name = entry["name"] as? String else { continue }
            results[name] = Result(passed: entry["passed"] as? Bool ?? false, message: entry["message"] as? String ?? "")
        }
        return BrowserRun(results: results, note: summary["note"] as? String, output: text)
    }
}
