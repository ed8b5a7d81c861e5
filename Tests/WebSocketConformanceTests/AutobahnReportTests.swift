import Foundation
import Testing

/// The verdict logic of the Autobahn run on a report shaped like wstest's, so a harness bug
/// cannot turn a failing server into a green CI.
@Suite struct AutobahnReportTests {
    let index = Data(
        """
        {"corkboard": {
          "10.1.1": {"behavior": "OK", "behaviorClose": "OK", "duration": 3, "remoteCloseCode": 1000, "reportfile": "a.json"},
          "6.2.10": {"behavior": "NON-STRICT", "behaviorClose": "OK", "duration": 1, "remoteCloseCode": 1000, "reportfile": "b.json"},
          "6.2.9": {"behavior": "OK", "behaviorClose": "INFORMATIONAL", "duration": 1, "remoteCloseCode": null, "reportfile": "c.json"},
          "7.1.5": {"behavior": "FAILED", "behaviorClose": "WRONG CODE", "duration": 0, "remoteCloseCode": 1002, "reportfile": "d.json"},
          "5.1": {"behavior": "OK", "behaviorClose": "UNCLEAN", "duration": 0, "remoteCloseCode": null, "reportfile": "e.json"}
        }}
        """.utf8)

    @Test func casesAreInNumericOrder() throws {
        let report = try AutobahnReport(indexJSON: index, agent: "corkboard")
        #expect(report.cases.map(\.id) == ["5.1", "6.2.9", "6.2.10", "7.1.5", "10.1.1"])
    }

    @Test func aFailingBehaviorOrCloseBehaviorFailsTheCase() throws {
        let report = try AutobahnReport(indexJSON: index, agent: "corkboard")
        #expect(report.failures.map(\.id) == ["5.1", "7.1.5"])
        #expect(
            report.failureList == """
                5.1  behavior=OK  behaviorClose=UNCLEAN  remoteCloseCode=none
                7.1.5  behavior=FAILED  behaviorClose=WRONG CODE  remoteCloseCode=1002
                """)
    }

    @Test func countsEveryBehavior() throws {
        let report = try AutobahnReport(indexJSON: index, agent: "corkboard")
        #expect(
            report.countsSummary
                == "5 cases · behavior: OK 3, FAILED 1, NON-STRICT 1 · behaviorClose: OK 2, INFORMATIONAL 1, UNCLEAN 1, WRONG CODE 1")
    }

    @Test func selectedCasesWithoutAResultAreMissing() throws {
        let report = try AutobahnReport(indexJSON: index, agent: "corkboard")
        #expect(report.missing(from: ["5.1", "5.2", "7.1.5", "10.1.1", "12.1.1"]) == ["5.2", "12.1.1"])
    }

    @Test func aReportWithoutTheAgentIsAnError() {
        #expect(throws: AutobahnReportError.self) { try AutobahnReport(indexJSON: index, agent: "someone-else") }
    }
}
