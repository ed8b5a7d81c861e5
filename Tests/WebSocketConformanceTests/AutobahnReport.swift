import Foundation

/// One case's outcome in wstest's `reports/servers/index.json`.
struct AutobahnCaseResult: Decodable, Equatable {
    let behavior: String
    let behaviorClose: String
    let remoteCloseCode: Int?
}

/// The fuzzingclient's verdicts for one agent, in case order, and what the issue accepts.
struct AutobahnReport {
    /// What issues 3 and 4 accept; everything else (FAILED, WRONG CODE, UNCLEAN, ...) fails CI.
    static let passingBehaviors: Set<String> = ["OK", "NON-STRICT", "INFORMATIONAL"]

    let cases: [(id: String, result: AutobahnCaseResult)]

    init(indexJSON: Data, agent: String) throws {
        try self.init(indexJSONs: [indexJSON], agent: agent)
    }

    /// The union of several reports (the shards of one run).
    init(indexJSONs: [Data], agent: String) throws {
        var results: [String: AutobahnCaseResult] = [:]
        for indexJSON in indexJSONs {
            let agents = try JSONDecoder().decode([String: [String: AutobahnCaseResult]].self, from: indexJSON)
            guard let shard = agents[agent] else {
                throw AutobahnReportError(description: "no results for agent \(agent) in the report (agents: \(agents.keys.sorted()))")
            }
            results.merge(shard) { first, _ in first }
        }
        cases = results.sorted { Self.caseOrder($0.key, $1.key) }.map { (id: $0.key, result: $0.value) }
    }

    var failures: [(id: String, result: AutobahnCaseResult)] {
        cases.filter { !Self.passingBehaviors.contains($0.result.behavior) || !Self.passingBehaviors.contains($0.result.behaviorClose) }
    }

    /// Selected cases the report has no result for (wstest stopped early, or a case crashed it).
    func missing(from selected: [String]) -> [String] {
        let reported = Set(cases.map(\.id))
        return selected.filter { !reported.contains($0) }
    }

    /// e.g. `behavior: OK 232, NON-STRICT 11 · behaviorClose: OK 243, INFORMATIONAL 3`.
    var countsSummary: String {
        func counts(_ value: (AutobahnCaseResult) -> String) -> String {
            var tally: [String: Int] = [:]
            for entry in cases { tally[value(entry.result), default: 0] += 1 }
            let mostFirst = tally.sorted { left, right in
                left.value != right.value ? left.value > right.value : left.key < right.key
            }
            return mostFirst.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        }
        return "\(cases.count) cases · behavior: \(counts(\.behavior)) · behaviorClose: \(counts(\.behaviorClose))"
    }

    /// One line per failing case: `7.1.5  behavior=FAILED  behaviorClose=WRONG CODE  remoteCloseCode=1002`.
    var failureList: String {
        failures.map { entry in
            "\(entry.id)  behavior=\(entry.result.behavior)  behaviorClose=\(entry.result.behaviorClose)  "
                + "remoteCloseCode=\(entry.result.remoteCloseCode.map(String.init) ?? "none")"
        }.joined(separator: "\n")
    }

    /// Case ids compare by their numeric parts: 6.2.10 after 6.2.9, 10.1.1 after 9.x.
    static func caseOrder(_ left: String, _ right: String) -> Bool {
        let leftParts = left.split(separator: ".").map { Int($0) ?? 0 }
        let rightParts = right.split(separator: ".").map { Int($0) ?? 0 }
        return leftParts.lexicographicallyPrecedes(rightParts)
    }
}

struct AutobahnReportError: Error, CustomStringConvertible {
    let description: String
}
