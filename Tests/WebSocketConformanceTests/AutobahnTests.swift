import Dispatch
import Foundation
import Synchronization
import TestSupport
import Testing

/// Autobahn|Testsuite's fuzzingclient against `/ws/echo` of a real `corkboard-bench serve` (issue 3):
/// every case must end OK, NON-STRICT or INFORMATIONAL, both in `behavior` and `behaviorClose`.
@Suite(.threadsOfTheirOwn) struct AutobahnTests {
    /// The groups CI runs: the core protocol and permessage-deflate (12.*, 13.*). 9.* (large
    /// messages, performance) runs in the benchmark instead.
    static let defaultCases = ["1.*", "2.*", "3.*", "4.*", "5.*", "6.*", "7.*", "10.*", "12.*", "13.*"]

    /// Overrides the case list for local loops, e.g. `CORKBOARD_AUTOBAHN_CASES="6.4.* 7.1.5"`
    /// (spaces or commas between patterns).
    static let casesVariable = "CORKBOARD_AUTOBAHN_CASES"

    /// A hard cap on the wstest run; it is killed after this. Issue 4 budgets 10 minutes for all groups.
    static let wstestTimeLimit: Double = 15 * 60

    /// Spec, log and reports of the latest run; open `reports/servers/index.html` in a browser.
    static let workFolder = PythonTools.packageRoot + "/.build/autobahn"

    static let agent = "corkboard"

    static var selectedPatterns: [String] {
        guard let value = ProcessInfo.processInfo.environment[casesVariable], !value.isEmpty else { return defaultCases }
        return value.split(whereSeparator: { $0 == "," || $0 == " " }).map(String.init)
    }

    /// Async, with the long blocking parts (installing, building the release server, the
    /// wstest shards) on threads of their own: a test that blocked one of the few cooperative
    /// threads for minutes would starve the suites that run beside it. The bound counts the
    /// release build too: on a fresh clone beside the whole suite on two cores it once took
    /// 12.8 minutes alone, and the cases about 8 more.
    @Test(.runningTimeLimit(.minutes(30)))
    func fuzzingClientCasesAllPass() async throws {
        let suite = try await BlockingWork { try PythonTools.autobahnTestsuite() }.value
        let patterns = Self.selectedPatterns
        // wstest given no valid case never finishes, so bad patterns fail here, at once.
        let selection = try AutobahnCaseSelection.resolve(patterns, with: suite)
        try #require(
            selection.unmatched.isEmpty && !selection.cases.isEmpty,
            "Autobahn case patterns that match no case: \(selection.unmatched) (of \(patterns))")

        let server = try await BlockingWork { UncheckedSendable(try EchoServerProcess()) }.value.value
        try? FileManager.default.removeItem(atPath: Self.workFolder) // no stale report can pass for this run's
        // wstest is single-threaded Python and the bottleneck (the server needs a fraction of a
        // core): shards of the case list run side by side against the same server.
        let shards = (0..<Self.shardCount).map { shard in
            stride(from: shard, to: selection.cases.count, by: Self.shardCount).map { selection.cases[$0] }
        }.filter { !$0.isEmpty }

        PythonTools.log(
            "Autobahn fuzzingclient: \(selection.cases.count) cases (\(patterns.joined(separator: " "))) "
                + "in \(shards.count) shards against \(server.echoURL)")
        let started = Date()
        let (wstest, url) = (suite.wstest, server.echoURL)
        let runs = shards.indices.map { shard in
            BlockingWork { try Self.runShard(shard, cases: shards[shard], wstest: wstest, url: url, started: started) }
        }
        var outcomes: [PythonTools.CommandOutcome] = []
        for run in runs { outcomes.append(try await run.value) }
        let duration = PythonTools.seconds(since: started)
        var indexes: [Data] = []
        for shard in shards.indices {
            let outcome = outcomes[shard]
            try #require(
                outcome.succeeded,
                """
                wstest shard \(shard) exited \(outcome.status) (log: \(Self.shardFolder(shard))/wstest.log):
                \(PythonTools.tail(outcome.standardOutput))
                \(PythonTools.tail(outcome.standardError))
                """)
            indexes.append(try Data(contentsOf: URL(fileURLWithPath: Self.shardFolder(shard) + "/reports/index.json")))
        }

        let report = try AutobahnReport(indexJSONs: indexes, agent: Self.agent)
        PythonTools.log("Autobahn run took \(duration): \(report.countsSummary)")
        PythonTools.log("Autobahn reports: \(Self.workFolder)/shard-*/reports/index.html")
        if !report.failures.isEmpty { PythonTools.log("Autobahn failing cases:\n\(report.failureList)") }

        #expect(report.missing(from: selection.cases).isEmpty, "cases with no result: \(report.missing(from: selection.cases))")
        #expect(server.isRunning, "the server died during the run; its log ends:\n\(server.logTail)")
        #expect(
            report.failures.count == 0,
            """
            \(report.failures.count) Autobahn case(s) not OK, NON-STRICT or INFORMATIONAL \
            (details in \(Self.workFolder)/shard-*/reports/\(Self.agent)_case_<id>.html):
            \(report.failureList)
            """)
    }

    /// Parallel wstest processes; two keep both cores of the CI machine busy.
    static let shardCount = 2

    static func shardFolder(_ shard: Int) -> String { workFolder + "/shard-\(shard)" }

    /// Runs wstest on one shard's cases (exact case ids are valid patterns) with its own report folder.
    private static func runShard(_ shard: Int, cases: [String], wstest: String, url: String, started: Date) throws -> PythonTools.CommandOutcome {
        let folder = Self.shardFolder(shard)
        try FileManager.default.createDirectory(atPath: folder + "/reports", withIntermediateDirectories: true)
        let specPath = try Self.writeSpec(cases: cases, url: url, reports: folder + "/reports", in: folder)
        return try PythonTools.run(
            wstest, ["-m", "fuzzingclient", "-s", specPath], workingDirectory: folder,
            timeout: Self.wstestTimeLimit, outputFile: folder + "/wstest.log"
        ) { output in
            let startedCases = output.components(separatedBy: "Running test case ID").count - 1
            PythonTools.log("  wstest shard \(shard): \(startedCases) of \(cases.count) cases started after \(PythonTools.seconds(since: started))")
        }
    }

    /// The fuzzingclient spec: this server, these cases, nothing excluded.
    private static func writeSpec(cases: [String], url: String, reports: String, in folder: String) throws -> String {
        let spec: [String: Any] = [
            "outdir": reports,
            "servers": [["agent": Self.agent, "url": url]],
            "cases": cases,
            "exclude-cases": [String](),
            "exclude-agent-cases": [String: Any](),
        ]
        let path = folder + "/spec.json"
        try JSONSerialization.data(withJSONObject: spec, options: [.prettyPrinted, .sortedKeys]).write(to: URL(fileURLWithPath: path))
        return path
    }
}
