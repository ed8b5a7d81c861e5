import CorkboardModel
import Foundation
import TestSupport
import Testing

/// `examples/grafana/corkboard.json` cannot drift from `/metrics`: every family a running
/// server exports is in some panel's expression, and every metric a panel names is one the
/// server exports (a histogram through its `_bucket`, `_sum` and `_count`).
@Suite(.threadsOfTheirOwn) struct GrafanaDashboardTests {
    static let path = PythonTools.packageRoot + "/examples/grafana/corkboard.json"

    /// Every expression of the dashboard's panels (rows' nested panels included).
    static func expressions() throws -> [String] {
        let dashboard = try JSONDecoder().decode(JSONValue.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
        var found: [String] = []
        func walk(_ value: JSONValue) {
            switch value {
            case .object(let object):
                if case .string(let expression) = object["expr"] { found.append(expression) }
                object.values.forEach(walk)
            case .array(let values):
                values.forEach(walk)
            default:
                break
            }
        }
        walk(dashboard)
        return found
    }

    /// The metric names an expression uses: the identifiers of Corkboard's and the process's families.
    static func metricNames(in expression: String) -> Set<String> {
        let pattern = try! NSRegularExpression(pattern: #"\b(?:corkboard|process)_[a-z_]+\b"#)
        let range = NSRange(expression.startIndex..., in: expression)
        return Set(pattern.matches(in: expression, range: range).compactMap { Range($0.range, in: expression).map { String(expression[$0]) } })
    }

    @Test func everyFamilyIsOnTheDashboardAndEveryMetricItNamesExists() throws {
        // A server showing every family: a member, a commit, a rejection, HTTP requests.
        let fixture = try HubFixture()
        let ada = try fixture.join("Ada")
        try ada.commit(.delete(items: ["i1"]))
        _ = try ada.reject(.delete(items: ["nope"]))
        let families = try MetricsEndpointTests.scrape(fixture).types
        #expect(families.count >= 25, "\(families.keys.sorted())")

        let expressions = try Self.expressions()
        let named = expressions.reduce(into: Set<String>()) { $0.formUnion(Self.metricNames(in: $1)) }
        // A histogram's series carry its family's name with a suffix.
        func family(of name: String) -> String {
            for suffix in ["_bucket", "_sum", "_count"] where name.hasSuffix(suffix) {
                let base = String(name.dropLast(suffix.count))
                if families[base] == "histogram" { return base }
            }
            return name
        }
        let dashboardFamilies = Set(named.map(family))
        let missing = Set(families.keys).subtracting(dashboardFamilies)
        #expect(missing.isEmpty, "families of /metrics on no panel: \(missing.sorted())")
        let unknown = dashboardFamilies.subtracting(families.keys)
        #expect(unknown.isEmpty, "metrics the dashboard names that /metrics does not export: \(unknown.sorted())")
    }

    @Test func itIsAnImportableDashboardWithADataSourceVariable() throws {
        let dashboard = try #require(
            try JSONDecoder().decode(JSONValue.self, from: Data(contentsOf: URL(fileURLWithPath: Self.path))).objectValue)
        #expect(dashboard["title"] == "Corkboard")
        #expect(dashboard["uid"] == "corkboard")
        let variables = try #require(dashboard["templating"]?.objectValue?["list"]?.elements, "a templating list")
        let datasource = variables.compactMap(\.objectValue).first { $0["type"] == "datasource" }
        #expect(datasource?["query"] == "prometheus")
        let panels = try #require(dashboard["panels"]?.elements, "panels")
        for panel in panels.compactMap(\.objectValue) where panel["type"] != "row" {
            #expect(panel["datasource"]?.objectValue?["uid"] == "${datasource}", "\(panel["title"] ?? "?") uses the variable")
        }
    }
}
