import Foundation
import TestSupport
import Testing

/// The board page's browser benchmark (`bench/browser/board_bench.py`) on a small board: it
/// only has to produce every figure (first render, pick-up, placeholder, drop, remote move,
/// keyboard step, and a column's pick-up and drag frames on a second board), each measured at
/// least once; what they are is for `bench/browser.sh` on a big board, by
/// hand (a shared machine is no place for a timed assertion). The run also fails on any
/// console error or warning of its pages, and when a drag did not pick the card up or put its
/// placeholder where the pointer went (or a key or a column drag did not do what it should).
@Suite(.serialized, .threadsOfTheirOwn) struct BoardBenchBrowserTests {
    static let outputFolder = PythonTools.packageRoot + "/.build/test-output/board-bench"
    static let measures = [
        "first render", "pick-up", "placeholder", "drop", "remote move", "keyboard step", "column pick-up", "column drag frame",
    ]

    @Test(.runningTimeLimit(.minutes(6))) func producesEveryFigure() async throws {
        let run = try await BlockingWork { BrowserRun.bench }.value.get()
        let result = try #require(
            run.results["page"], "the bench measured no page (\(run.note ?? "no note")):\n\(PythonTools.tail(run.output, lines: 60))")
        #expect(result.passed, "\(result.message)\n\(PythonTools.tail(run.output, lines: 40))")
        let figures = try #require(
            try? JSONSerialization.jsonObject(with: Data(result.message.utf8)) as? [String: [String: Any]],
            "the bench's figures: \(result.message)")
        for measure in Self.measures {
            let figure = figures[measure]
            let runs = figure?["runs"] as? [NSNumber] ?? []
            #expect(((figure?["n"] as? NSNumber)?.intValue ?? 0) >= 1, "\(measure) was measured: \(figure.map { "\($0)" } ?? "missing")")
            #expect(((figure?["median"] as? NSNumber)?.doubleValue ?? -1) >= 0, "\(measure) is a duration: \(figure.map { "\($0)" } ?? "missing")")
            #expect(runs.count == (figure?["n"] as? NSNumber)?.intValue, "\(measure) keeps each run: \(figure.map { "\($0)" } ?? "missing")")
        }
    }
}

extension BrowserRun {
    /// One run of the bench on 3 columns of 8 cards (and the column drag on 5 columns of 3), one page.
    static let bench = BrowserRun.outcome {
        let data = try TemporaryDirectory("corkboard-bench-data")
        return try BrowserRun.perform(
            script: "board_bench.py", folder: "/bench/browser/", label: "the browser bench", output: BoardBenchBrowserTests.outputFolder,
            log: "bench.log",
            arguments: [
                "--web-root", PythonTools.packageRoot + "/web", "--label", "page", "--data", data.path, "--cards", "8", "--wide-columns", "5",
                "--wide-cards", "3", "--rounds", "1",
            ],
            watchdog: 240)
    }
}
