import Foundation
import TestSupport

/// Case patterns ("6.4.*", "7.1.5") expanded into case ids by the suite's own resolver
/// (`python/autobahn_cases.py`), with the patterns that match no case.
struct AutobahnCaseSelection: Decodable {
    let cases: [String]
    let unmatched: [String]

    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("python/autobahn_cases.py").path

    static func resolve(_ patterns: [String], with suite: AutobahnTestsuite) throws -> AutobahnCaseSelection {
        let outcome = try suite.python.run([script] + patterns, timeout: 60)
        guard outcome.succeeded else {
            throw AutobahnReportError(description: "resolving the Autobahn cases failed (exit \(outcome.status)):\n\(PythonTools.tail(outcome.standardError))")
        }
        return try JSONDecoder().decode(AutobahnCaseSelection.self, from: Data(outcome.standardOutput.utf8))
    }
}
