import Foundation
import TestSupport
import Testing

/// Requests per route in `/metrics`: counted under the router's pattern, never the raw path
/// (a client asking for ever new paths cannot grow the series), with their status; what no
/// route matched is `unmatched`, a method the server does not implement is `other`; and each
/// route's durations are a histogram.
@Suite(.threadsOfTheirOwn) struct HTTPRouteMetricsTests {
    static func series(_ method: String, _ route: String, _ status: Int) -> String {
        #"corkboard_http_requests_total{method="\#(method)",route="\#(route)",status="\#(status)"}"#
    }

    @Test func requestsAreCountedByPatternMethodAndStatus() throws {
        let fixture = try HubFixture()
        let api = fixture.api
        #expect(try api.get("/api/boards/board").status == 200)
        #expect(try api.get("/api/boards/nope").status == 404)
        #expect(try api.get("/api/boards/other-nope").status == 404)
        #expect(try api.get("/no/such/path-\(UUID().uuidString)").status == 404)
        #expect(try api.send("PUT", "/api/boards").status == 405)
        #expect(try api.send("BREW", "/api/boards").status == 405)
        _ = try fixture.join("Ada")

        let metrics = try MetricsEndpointTests.scrape(fixture)
        #expect(metrics[Self.series("GET", "/api/boards/{id}", 200)] == 1)
        #expect(metrics[Self.series("GET", "/api/boards/{id}", 404)] == 2)
        #expect(metrics[Self.series("GET", "unmatched", 404)] == 1)
        #expect(metrics[Self.series("PUT", "/api/boards", 405)] == 1)
        #expect(metrics[Self.series("other", "/api/boards", 405)] == 1)
        // The fixture created its board; the member's WebSocket upgrade is a 101.
        #expect(metrics[Self.series("POST", "/api/boards", 201)] == 1)
        #expect(metrics[Self.series("GET", "/ws", 101)] == 1)
        #expect(metrics.types["corkboard_http_requests_total"] == "counter")
        #expect(metrics.types["corkboard_http_request_duration_seconds"] == "histogram")
        #expect(metrics[#"corkboard_http_request_duration_seconds_count{method="GET",route="/api/boards/{id}"}"#] == 3)
        #expect(metrics[#"corkboard_http_request_duration_seconds_bucket{method="GET",route="/api/boards/{id}",le="+Inf"}"#] == 3)
        // No raw path became a label.
        let raw = metrics.samples.keys.filter { $0.contains("nope") || $0.contains("no/such") || $0.contains("BREW") }
        #expect(raw.isEmpty, "\(raw)")
    }
}
