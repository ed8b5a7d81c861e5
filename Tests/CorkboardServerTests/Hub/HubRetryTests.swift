import CorkboardModel
import CorkboardWire
import Foundation
import TestSupport
import Testing

/// docs/protocol.md#resending-an-opid over HTTP: an opId committed over a WebSocket and sent again over HTTP is not
/// applied again (retries over WebSockets are tested in-process: CorkboardHubTests' HubRetryTests).
@Suite(.threadsOfTheirOwn) struct HubRetryTests {
    @Test func aCommittedOpIdRetriedOverHTTPIsNotAppliedAgain() throws {
        let fixture = try HubFixture()
        let ada = try fixture.join("Ada")
        let request = ada.request(.delete(items: ["i3"]))
        guard case .committed(let first) = try ada.perform(request) else {
            Issue.record("the delete was not committed")
            return
        }
        let resend = request
        let response = try fixture.api.perform("board", resend)
        #expect(response.status == 200)
        #expect(try response.message() == .committed(first))
        #expect(try ada.syncCommitted().isEmpty)
        #expect(try fixture.document().seq == 1)
    }
}
