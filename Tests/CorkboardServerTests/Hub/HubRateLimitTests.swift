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
    /// Five operations a second, in bursts of five.
    static func tightOperations(_ configuration: inout ServerConfiguration) {
        configuration.hub.operationRate = RateLimit(perSecond: 5, burst: 5)
    }

    @Test func httpCallersAreLimitedByAddressWith429AndRetryAfter() throws {
        let fixture = try HubFixture(configure: Self.tightOperations)
        let requests = (0..<8).map { n in
            OperationRequest(opId: "http-\(n)", baseSeq: 0, .move(sources: ["i\(n % 5 + 1)"], destination: Destination(collection: "done")))
        }
        let responses = try requests.map { try fixture.api.perform("board", $0) }
        let limited = responses.indices.filter { responses[$0].status == 429 }
        #expect(limited.count >= 3, "\(responses.map(\.status))")
        for index in limited {
            #expect(responses[index].http.header("Retry-After") == "1")
            guard case .rejected(let rejected) = try responses[index].message() else {
                Issue.record("429 without rejected body")
                continue
            }
            #expect(rejected.code == .rateLimited && rejected.opId == requests[index].opId)
        }
        Thread.sleep(forTimeInterval: 1.1)
        for index in limited {
            let retried = try fixture.api.perform("board", requests[index])
            #expect(retried.status == 200, "\(retried)")
        }
    }
}
