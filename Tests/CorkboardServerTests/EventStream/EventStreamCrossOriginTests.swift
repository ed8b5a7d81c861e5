import Foundation
import TestSupport
import Testing

/// An event stream read by a page of an `--allowed-origins` origin (an EventSource): the
/// stream's head lets the page read it, a reconnect's `Last-Event-ID` passes the preflight,
/// and a page of any other origin is refused before anything is followed.
@Suite(.threadsOfTheirOwn) struct EventStreamCrossOriginTests {
    @Test func anAllowedPageReadsTheStreamAndAnyOtherIsRefused() throws {
        let fixture = try CrossOriginTests.fixture()
        let page = CrossOriginTests.page
        let preflight = try fixture.api.send(
            "OPTIONS", "/api/boards/board/events",
            headers: ["Origin: \(page)", "Access-Control-Request-Method: GET", "Access-Control-Request-Headers: last-event-id"])
        #expect(preflight.status == 204)
        #expect(preflight.http.header("Access-Control-Allow-Origin") == page)
        #expect(preflight.http.header("Access-Control-Allow-Methods") == "GET, HEAD, OPTIONS")
        #expect(preflight.http.header("Access-Control-Allow-Headers")?.contains("Last-Event-ID") == true)

        let stream = try EventStreamReader(
            port: fixture.port, target: "/api/boards/board/events", headers: ["Origin: \(page)", "Last-Event-ID: 0"])
        #expect(stream.status == 200)
        #expect(stream.header("Access-Control-Allow-Origin") == page)
        #expect(stream.header("Vary") == "Origin")
        try EventStreamTests.insert(fixture, "n1")
        #expect(try stream.next("committed").seq == 1)

        let elsewhere = try EventStreamReader(
            port: fixture.port, target: "/api/boards/board/events", headers: ["Origin: https://evil.example"])
        #expect(elsewhere.status == 403)
        #expect(elsewhere.header("Access-Control-Allow-Origin") == nil)
    }
}
