import CorkboardHub
import CorkboardModel
import CorkboardServer
import CorkboardWire
import Foundation
import TestSupport
import Testing

/// `GET /metrics` over a real socket: it parses as Prometheus text and counts exactly what
/// the test did on a fresh server.
@Suite(.threadsOfTheirOwn) struct MetricsEndpointTests {
    static func scrape(_ fixture: HubFixture) throws -> PrometheusText {
        let response = try BlockingClient.request(port: fixture.port, "GET /metrics HTTP/1.1\r\nHost: test\r\n\r\n")
        #expect(response.status == 200)
        #expect(response.header("Content-Type")?.hasPrefix("text/plain; version=0.0.4") == true)
        return try PrometheusText(response.text)
    }

    @Test func countsOperationsMembersDragsAndTraffic() throws {
        let fixture = try HubFixture { $0.hub.operationRate = RateLimit(perSecond: 1, burst: 4) }
        let ada = try fixture.join("Ada")
        let bob = try fixture.join("Bob")
        try ada.commit(.move(sources: ["i1"], destination: Destination(collection: "done")))
        try ada.commit(.move(sources: ["i2"], destination: Destination(collection: "done")))
        #expect(try ada.reject(.move(sources: ["nope"], destination: Destination(collection: "done"))).code == .gone)
        try bob.commit(.delete(items: ["i3"]))
        // Ada's fourth operation in the burst of four goes through; the fifth is rate-limited.
        #expect(try ada.perform(.move(sources: ["i4"], destination: Destination(collection: "done"))).typeName == "committed")
        #expect(try ada.reject(.move(sources: ["i5"], destination: Destination(collection: "done"))).code == .rateLimited)
        try bob.send(.dragStart(items: ["i5"]))
        _ = try ada.waitFor(type: "drag")

        let metrics = try Self.scrape(fixture)
        #expect(metrics["corkboard_ops_committed_total"] == 4)
        #expect(metrics[#"corkboard_ops_rejected_total{code="gone"}"#] == 1)
        #expect(metrics[#"corkboard_ops_rejected_total{code="rate-limited"}"#] == 1)
        #expect(metrics[#"corkboard_ops_rejected_total{code="busy"}"#] == 0)
        #expect(metrics["corkboard_commit_to_broadcast_seconds_count"] == 4)
        #expect(metrics.types["corkboard_commit_to_broadcast_seconds"] == "histogram")
        #expect(metrics["corkboard_boards_loaded"] == 1)
        #expect(metrics["corkboard_boards_stored"] == 1)
        // Each batch of the group commit is one write: four commits and the permanent
        // rejection (kept for opId replays) took one to five.
        #expect((1...5).contains(metrics["corkboard_store_write_seconds_count"]))
        #expect(metrics.types["corkboard_store_write_seconds"] == "histogram")
        #expect(metrics["corkboard_members"] == 2)
        #expect(metrics["corkboard_drags"] == 1)
        // Two WebSockets and this scrape; earlier HTTP requests (creating the board) have closed.
        #expect(metrics["corkboard_connections"] == 3)
        #expect(metrics["corkboard_connections_accepted_total"] == 4)
        #expect(metrics["corkboard_bytes_received_total"] > 500)
        #expect(metrics["corkboard_bytes_sent_total"] > 1000)
        #expect(metrics["corkboard_slow_consumers_dropped_total"] == 0)
        #expect(metrics.types["corkboard_ops_committed_total"] == "counter")
        #expect(metrics.types["corkboard_members"] == "gauge")

        // Leaving clears the drag and the membership.
        try bob.ws.sendClose()
        _ = try ada.waitFor(type: "peer.left")
        let after = try Self.scrape(fixture)
        #expect(after["corkboard_members"] == 1)
        #expect(after["corkboard_drags"] == 0)
        #expect(after["corkboard_bytes_sent_total"] > metrics["corkboard_bytes_sent_total"])
    }
}
