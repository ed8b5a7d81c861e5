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
        "loads", "pointer-reorder", "keyboard-reorder", "keyboard-escape", "remote-update", "destroy", "touch", "touch-handle", "console-clean",
    ]

    static let outputFolder = PythonTools.packageRoot + "/.build/test-output/embed-browser"

    @Test(.timeLimit(.minutes(8)), arguments: checks)
    func check(_ name: String) async throws {
        let run = try await BlockingWork { EmbedRun.shared }.value.get()
        let result = try #require(
            run.results[name],
            """
            check \(name) did not run (\(run.note ?? "no note")); the script's output:
            \(PythonTools.tail(run.output, lines: 60))
            """)
        if !result.passed { Issue.record("\(name): \(result.message)") }
    }
}

/// One run of `browser/embed.py`, shared by the test cases.
struct EmbedRun: Sendable {
    let results: [String: BrowserRun.Result]
    let note: String?
    let output: String

    static let shared: Swift.Result<EmbedRun, PythonTools.Failure> = {
        do { return .success(try EmbedRun.perform()) } catch let failure as PythonTools.Failure {
            return .failure(failure)
        } catch {
            return .failure(PythonTools.Failure("\(error)"))
        }
    }()

    /// Installs Playwright if needed, then runs the script with a time limit (its own
    /// watchdog stops it first; each of its waits has a timeout).
    static func perform() throws -> EmbedRun {
        let python = try PlaywrightTools.python()
        let root = PythonTools.packageRoot
        let output = EmbedBrowserTests.outputFolder
        if FileManager.default.fileExists(atPath: output) { try FileManager.default.removeItem(atPath: output) }
        try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        let data = try TemporaryDirectory("corkboard-embed-data")
        let started = Date()
        let outcome = try python.run(
            [
                root + "/Tests/CorkboardServerTests/browser/embed.py", "--corkboard", ServerProcess.executablePath,
                "--web-root", root + "/web", "--example", root + "/examples/embed", "--data", data.path,
                "--output", output, "--watchdog", "120",
            ], timeout: 150)
        let text = outcome.standardOutput + (outcome.standardError.isEmpty ? "" : "\n--- stderr:\n" + outcome.standardError)
        try? text.write(toFile: output + "/embed.log", atomically: true, encoding: .utf8)
        print("EmbedBrowserTests: the embed checks ran in \(PythonTools.seconds(since: started)) (exit \(outcome.status)); output in \(output)")
        guard let summary = try? Data(contentsOf: URL(fileURLWithPath: output + "/summary.json")),
            let object = try? JSONSerialization.jsonObject(with: summary) as? [String: Any],
            let entries = object["scenarios"] as? [[String: Any]]
        else {
            throw PythonTools.Failure("the embed checks left no summary (exit \(outcome.status)):\n\(PythonTools.tail(text, lines: 60))")
        }
        var results: [String: BrowserRun.Result] = [:]
        for entry in entries {
            guard let name = entry["name"] as? String else { continue }
            results[name] = BrowserRun.Result(passed: entry["passed"] as? Bool ?? false, message: entry["message"] as? String ?? "")
        }
        return EmbedRun(results: results, note: object["note"] as? String, output: text)
    }
}
