import Foundation
import TestSupport
import Testing

/// One run of a Playwright script of `browser/` (Debian's Chromium, Playwright for Python)
/// against a real `corkboard serve` that the script starts: its named results, read from the
/// `summary.json` it writes, and its output. Each browser suite runs its script once and
/// shares the run among its test cases, so a failure names its scenario.
struct BrowserRun: Sendable {
    struct Result: Sendable {
        let passed: Bool
        let message: String
    }

    let results: [String: Result]
    let note: String?
    let output: String

    /// Records an issue unless the run's checks are `listed` and `name` among them passed.
    func expect(_ name: String, listed: [String]) throws {
        #expect(Set(results.keys) == Set(listed), "the script's checks are the ones listed here")
        let result = try #require(
            results[name],
            """
            check \(name) did not run (\(note ?? "no note")); the script's output:
            \(PythonTools.tail(output, lines: 60))
            """)
        if !result.passed { Issue.record("\(name): \(result.message)") }
    }

    /// A run, or why there was none, kept once for every test case of a suite.
    static func outcome(_ run: () throws -> BrowserRun) -> Swift.Result<BrowserRun, PythonTools.Failure> {
        do { return .success(try run()) } catch let failure as PythonTools.Failure {
            return .failure(failure)
        } catch {
            return .failure(PythonTools.Failure("\(error)"))
        }
    }

    /// Installs Playwright if needed (bounded on its own), then runs `script` with a time limit:
    /// each Playwright wait in it has its own timeout, and its watchdog (`watchdog` seconds)
    /// stops it before the limit (30 s later). `output` is emptied first; the script's output goes to `log` in it.
    /// `folder` is where the script is, from the package's root (the benchmarks' scripts are in bench/).
    static func perform(
        script: String, folder: String = "/Tests/CorkboardEndToEndTests/browser/", label: String, output: String, log: String, arguments: [String],
        watchdog: Int
    ) throws -> BrowserRun {
        let python = try PlaywrightTools.python()
        if FileManager.default.fileExists(atPath: output) { try FileManager.default.removeItem(atPath: output) }
        try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        let started = Date()
        let outcome = try python.run(
            [PythonTools.packageRoot + folder + script, "--corkboard", ServerProcess.executablePath]
                + arguments + ["--output", output, "--watchdog", String(watchdog)],
            timeout: Double(watchdog + 30))
        // The summary line repeats summary.json; people read the rest.
        let lines = outcome.standardOutput.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix("BROWSER-SUMMARY ") }.joined(separator: "\n")
        let text = lines + (outcome.standardError.isEmpty ? "" : "\n--- stderr:\n" + outcome.standardError)
        try? text.write(toFile: output + "/" + log, atomically: true, encoding: .utf8)
        print("BrowserRun: \(label) ran in \(PythonTools.seconds(since: started)) (exit \(outcome.status)); output in \(output)/\(log)")
        if !outcome.succeeded { print(PythonTools.tail(text, lines: 200)) }

        guard let data = try? Data(contentsOf: URL(fileURLWithPath: output + "/summary.json")),
            let summary = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let entries = summary["scenarios"] as? [[String: Any]]
        else {
            throw PythonTools.Failure("\(label) left no summary (exit \(outcome.status)):\n\(PythonTools.tail(text, lines: 60))")
        }
        var results: [String: Result] = [:]
        for entry in entries {
            guard let name = entry["name"] as? String else { continue }
            results[name] = Result(passed: entry["passed"] as? Bool ?? false, message: entry["message"] as? String ?? "")
        }
        return BrowserRun(results: results, note: summary["note"] as? String, output: text)
    }
}
