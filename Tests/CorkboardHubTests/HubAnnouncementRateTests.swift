import CorkboardHub
import CorkboardModel
import CorkboardWire
import Foundation
import HubTestSupport
import TestSupport
import Testing

/// docs/protocol.md#peers, issue #31: join churn on a small board is told at once only while its
/// announcements stay within the announcement byte rate; past it the changes wait for the tick
/// and go out together in one `peers` message, which a member applies like any tick.
@Suite(.threadsOfTheirOwn) struct HubAnnouncementRateTests {
    @Test func churnPastTheAnnouncementRateWaitsForTheTick() throws {
        // 400 bytes and next to no refill: about five peer.joined of maximal names at once.
        let fixture = try HubFixture {
            $0.announcementByteRate = RateLimit(perSecond: 1, burst: 400)
            $0.membershipTick = .milliseconds(200)
        }
        let ada = try fixture.join("Ada")
        let name = String(repeating: "n", count: Limits.maximumNameBytes - 3)
        let churn = try (0..<12).map { try fixture.join("c\(String(format: "%02d", $0))" + name) }
        var told: Set<ClientID> = []
        var atOnce = 0
        var ticks: [PeersChange] = []
        while told.count < churn.count {
            switch try ada.nextMessage() {
            case .peerJoined(let client, _, _):
                atOnce += 1
                told.insert(client)
            case .peers(let change):
                ticks.append(change)
                told.formUnion(change.joined.map(\.client))
            default:
                break
            }
        }
        #expect(told == Set(churn.map(\.clientID)))
        #expect(atOnce >= 1 && atOnce * (44 + Limits.maximumNameBytes) <= 400 + 44 + Limits.maximumNameBytes, "\(atOnce) at once")
        #expect(!ticks.isEmpty && ticks.last?.count == 13, "the tick carries the rest and the count: \(ticks)")
        // Leaves too: the budget is spent, they come with a tick, in order after the joins.
        for client in churn { try client.close() }
        var left: Set<ClientID> = []
        while left.count < churn.count {
            switch try ada.nextMessage() {
            case .peerLeft(let client): left.insert(client)
            case .peers(let change): left.formUnion(change.left)
            default: break
            }
        }
        #expect(left == Set(churn.map(\.clientID)))
    }
}
