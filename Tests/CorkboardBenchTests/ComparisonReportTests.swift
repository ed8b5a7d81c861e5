import CorkboardBench
import Foundation
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

@Suite struct ComparisonReportTests {
    private func step(_ clients: Int, p95: Double) -> FanoutStep {
        var latency = LatencySummary(nanoseconds: [UInt64(p95 * 1e6)])
        latency.p50 = p95 / 2
        return FanoutStep(
            clients: clients, moves: 10, latency: latency, expectedDeliveries: clients * 10, duplicates: 0,
            missing: 0, joinSeconds: 1)
    }

    private var records: [BenchRecord] {
        [
            BenchRecord(
                server: "hummingbird", scenario: "fanout", figures: ["capacity": 1_500, "limit_ms": 250],
                steps: [step(500, p95: 40), step(1_000, p95: 120), step(1_500, p95: 240), step(2_000, p95: 400)]),
            BenchRecord(
                server: "corkboard", scenario: "fanout", figures: ["capacity": 5_000, "limit_ms": 250],
                steps: (1...10).map { step($0 * 500, p95: Double($0) * 20) }),
            BenchRecord(
                server: "corkboard", scenario: "ops", variant: "1 board", figures: ["ops_per_second": 30_000],
                latency: LatencySummary(nanoseconds: [1_000_000])),
            BenchRecord(server: "hummingbird", scenario: "ops", variant: "1 board", figures: ["ops_per_second": 20_000]),
            BenchRecord(server: "corkboard", scenario: "memory", variant: "no deflate", figures: ["kib_per_connection": 3.5, "connections": 10_000]),
            BenchRecord(server: "hummingbird", scenario: "memory", variant: "no deflate", figures: ["kib_per_connection": 26, "connections": 10_000]),
        ]
    }

    @Test func tablesGiveCorkboardFirstWithRatiosAndTheGoalsVerdicts() {
        let report = ComparisonReport(records: records)
        #expect(report.servers == ["corkboard", "hummingbird"])
        let markdown = report.markdown(title: "T", machine: "m")
        #expect(markdown.contains("| hummingbird | 1500 |"))
        #expect(markdown.contains("3.33×")) // fan-out 5,000 / 1,500
        #expect(markdown.contains("1.50×")) // ops 30,000 / 20,000
        #expect(markdown.contains("7.43× less")) // memory 26 / 3.5
        let goals = report.goals()
        #expect(goals.contains { $0.contains("**met**") && $0.contains("2× the best Swift peer") })
        #expect(goals.contains { $0.contains("**met**") && $0.contains("0.8× uWebSockets") })
        #expect(goals.contains { $0.contains("**not met**") && $0.contains("2× hummingbird") })
        #expect(goals.contains { $0.contains("**met**") && $0.contains("4 KiB") })
        #expect(goals.contains { $0.contains("0.8× uWebSockets") && $0.contains("not run here") })
    }

    @Test func aRunWithTheUWebSocketsPeerMeasuresTheGoalAgainstIt() {
        let uws = BenchRecord(
            server: "uws", scenario: "fanout", figures: ["capacity": 7_000, "limit_ms": 250],
            steps: (1...14).map { step($0 * 500, p95: Double($0) * 15) })
        let report = ComparisonReport(records: records + [uws])
        #expect(report.servers == ["corkboard", "hummingbird", "uws"])
        #expect(report.markdown(title: "T", machine: "m").contains("| uws | 7000 |"))
        // 5,000 is below 0.8 × 7,000 = 5,600: the measured peer decides, not the issue's 6,000.
        let goal = report.goals().first { $0.contains("0.8× uWebSockets") }
        #expect(goal?.contains("**not met**") == true)
        #expect(goal?.contains("the uws peer, this run") == true)
        #expect(goal?.contains("5600") == true)
    }

    @Test func theEmbeddedStoreHasATableOfItsOwnAndIsNoPeer() {
        let durable = BenchRecord(
            server: ComparisonReport.durableServer, scenario: "ops", variant: "1 board",
            figures: ["ops_per_second": 6_000], latency: LatencySummary(nanoseconds: [4_000_000]))
        let report = ComparisonReport(records: records + [durable])
        #expect(report.servers == ["corkboard", "hummingbird"])
        let markdown = report.markdown(title: "T", machine: "m")
        #expect(markdown.contains("on the embedded store"))
        #expect(markdown.contains("| 1 board | 6000 | 4.0 ms | 4.0 ms | 20 % |")) // 6,000 of 30,000
        #expect(!report.goals().contains { $0.contains(ComparisonReport.durableServer) })
        // Without its records the table is left out.
        #expect(!ComparisonReport(records: records).markdown(title: "T", machine: "m").contains("embedded store"))
    }

    @Test func theFanoutPlotIsWellFormedSVGWithOneCurvePairPerServer() throws {
        let svg = ComparisonReport(records: records).fanoutSVG()
        final class Counter: NSObject, XMLParserDelegate {
            var polylines = 0
            func parser(
                _ parser: XMLParser, didStartElement element: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]
            ) {
                if element == "polyline" { polylines += 1 }
            }
        }
        let parser = XMLParser(data: Data(svg.utf8))
        let counter = Counter()
        parser.delegate = counter
        #expect(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
        #expect(counter.polylines == 4)
    }
}
