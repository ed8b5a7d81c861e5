import CorkboardServer
import Foundation
import TestSupport
import Testing

/// Every family `/metrics` exports is described (HELP and TYPE), and the standard ones an
/// operator looks for first are there: the build, the process, the boards in the store.
@Suite(.threadsOfTheirOwn) struct MetricFamiliesTests {
    @Test func everyFamilyHasHelpAndAType() throws {
        let fixture = try HubFixture()
        // Make the hub's families appear: a member, a commit, a rejection.
        let ada = try fixture.join("Ada")
        try ada.commit(.delete(items: ["i1"]))
        _ = try ada.reject(.delete(items: ["nope"]))
        let metrics = try MetricsEndpointTests.scrape(fixture)
        let expected = [
            "corkboard_build_info", "corkboard_connections", "corkboard_connections_accepted_total", "corkboard_connections_refused_total",
            "corkboard_bytes_received_total", "corkboard_bytes_sent_total", "corkboard_socket_writes_total", "corkboard_sends_written_total",
            "corkboard_slow_consumers_dropped_total",
            "corkboard_tls_failures_total", "corkboard_token_reload_failures_total", "corkboard_boards_loaded", "corkboard_boards_stored", "corkboard_members",
            "corkboard_drags", "corkboard_event_streams", "corkboard_http_requests_total", "corkboard_http_request_duration_seconds",
            "corkboard_ops_committed_total", "corkboard_ops_followed_total", "corkboard_ops_rejected_total", "corkboard_store_conflicts_total",
            "corkboard_welcome_boards_written_total", "corkboard_webhook_attempts_total", "corkboard_webhook_backlog",
            "corkboard_commit_to_broadcast_seconds", "corkboard_store_write_seconds", "process_resident_memory_bytes",
            "process_cpu_seconds_total", "process_open_fds", "process_max_fds", "process_start_time_seconds",
        ]
        #expect(Set(metrics.types.keys) == Set(expected))
        for (family, type) in metrics.types {
            #expect(!(metrics.helps[family] ?? "").isEmpty, "\(family) (\(type)) has no HELP")
        }
        #expect(metrics.types["corkboard_ops_rejected_total"] == "counter")
        #expect(metrics.types["corkboard_boards_loaded"] == "gauge")
        #expect(metrics.types["process_cpu_seconds_total"] == "counter")
    }

    @Test func buildInfoCarriesTheVersion() throws {
        let metrics = try MetricsEndpointTests.scrape(try HubFixture())
        let series = #"corkboard_build_info{version="\#(CorkboardVersion.current)",swift="\#(CorkboardVersion.swift)"}"#
        #expect(metrics[series] == 1)
        #expect(metrics.types["corkboard_build_info"] == "gauge")
    }

    @Test func processFiguresAreThisProcesss() throws {
        let metrics = try MetricsEndpointTests.scrape(try HubFixture())
        // The test process itself: tens of megabytes, sockets open, started within the day.
        #expect(metrics["process_resident_memory_bytes"] > 10_000_000)
        #expect(metrics["process_open_fds"] >= 3)
        #expect(metrics["process_max_fds"] >= metrics["process_open_fds"])
        #expect(metrics["process_cpu_seconds_total"] > 0)
        let now = Date().timeIntervalSince1970
        #expect(metrics["process_start_time_seconds"] <= now + 1)
        #expect(metrics["process_start_time_seconds"] > now - 86_400)
    }

    @Test func storedBoardsCountsBoardsNobodyOpened() throws {
        let fixture = try HubFixture()
        let api = BoardAPI(port: fixture.port)
        for name in ["a", "b", "c"] { _ = try api.createBoard(HubFixture.grid(id: name, collections: 1, itemsEach: 1)) }
        let metrics = try MetricsEndpointTests.scrape(fixture)
        // The fixture's board and three more, none of them opened by a member.
        #expect(metrics["corkboard_boards_stored"] == 4)
        #expect(metrics["corkboard_boards_loaded"] == 0)
    }
}
