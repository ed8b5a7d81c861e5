import CorkboardHub
import CorkboardModel
import CorkboardServer
import CorkboardWire
import Foundation
import TestSupport
import Testing

/// HTTP callers' rates, by address (the WebSocket connections' rates are tested in-process:
/// CorkboardHubTests' HubRateLimitTests).
@Suite(.threadsOfTheirOwn) struct HubRateLimitTests {
    /// Bursts of five operations, one more a second: eight requests in a row pass the burst
    /// however slowly a loaded machine sends them (at most one token comes back per second).
    static func tightOperations(_ configuration: inout ServerConfiguration) {
        configuration.hub.operationRate = RateLimit(perSecond: 1, burst: 5)
    }

    @Test func httpCallersAreLimitedByAddressWith429AndRetryAfter() throws {
        let fixture = try HubFixture(configure: Self.tightOperations)
        let requests = (0..<8).map { n in
            OperationRequest(opId: "http-\(n)", baseSeq: 0, .move(sources: ["i\(n % 5 + 1)"], destination: Destination(collection: "done")))
        }
        let started = Date()
        let responses = try requests.map { try fixture.api.perform("board", $0) }
        let refilled = Int(Date().timeIntervalSince(started).rounded(.up))
        let limited = responses.indices.filter { responses[$0].status == 429 }
        #expect(limited.count >= max(0, 3 - refilled), "\(responses.map(\.status)) in about \(refilled) s")
        for index in limited {
            #expect(responses[index].http.header("Retry-After") == "1")
            guard case .rejected(let rejected) = try responses[index].message() else {
                Issue.record("429 without rejected body")
                continue
            }
            #expect(rejected.code == .rateLimited && rejected.opId == requests[index].opId)
        }
        // Retried after the Retry-After they were given, each commits (one token a second).
        for index in limited {
            var retried = try fixture.api.perform("board", requests[index])
            for _ in 0..<5 where retried.status == 429 {
                Thread.sleep(forTimeInterval: 1.1)
                retried = try fixture.api.perform("board", requests[index])
            }
            #expect(retried.status == 200, "\(retried)")
        }
    }
}
