import CorkboardHub
import CorkboardModel
import CorkboardWire
import Foundation
import HubTestSupport
import TestSupport
import Testing

/// docs/protocol.md#refreshing-the-token: a member whose token expired and was not refreshed
/// is closed 4001 once the grace has gone by too — in the hub's time (`ManualClock`, whose
/// wall time a token's `exp` is read against), so the test sees it at its moment, unslept.
@Suite(.threadsOfTheirOwn) struct HubTokenExpiryTimeTests {
    /// Every token is an editor's of every board, expiring at `expires`.
    struct ExpiringAccess: AccessPolicy {
        let expires: Date

        func judge(token: String?, checkingLifetime: Bool) -> TokenJudgement {
            var holder = TokenHolder(role: .editor, boards: .all, mayReadMetrics: false)
            holder.expires = expires
            return .holder(holder)
        }
    }

    @Test func aTokenNotRefreshedClosesTheConnectionOnceItsGraceIsOver() throws {
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        let clock = ManualClock(wallTime: start)
        let fixture = try HubFixture(access: ExpiringAccess(expires: start.addingTimeInterval(60))) {
            $0.clock = clock
            $0.tokenExpiryGrace = 30
        }
        let ada = try fixture.join("Ada", token: "t")
        #expect(ada.welcome.tokenExpiresAt == 1_800_000_060_000)
        // The check runs on the first whole millisecond past `exp` and the grace.
        clock.advance(by: .milliseconds(90_000))
        #expect(try ada.sync().isEmpty, "still connected at the deadline")
        clock.advance(by: .milliseconds(1))
        #expect(ada.link.nextClose() == .tokenExpired)
    }
}
