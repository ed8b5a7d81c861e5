import CorkboardHub
import CorkboardModel
import CorkboardStore
import CorkboardWire
import Foundation
import HubTestSupport
import TestSupport
import Testing

/// Issue #31, item 5, in-process: whoever the commits are by (`by`), it is at most
/// `Limits.maximumNameBytes` and paid for: a token naming its holder with a longer `sub` or
/// `name` proves nothing, whatever policy the hub is given, and `by` is counted with each
/// operation against the byte rate.
@Suite(.threadsOfTheirOwn) struct HubNameBytesTests {
    /// A policy that grants everything to a holder of the given names.
    struct NamingPolicy: AccessPolicy {
        var holder: TokenHolder
        func judge(token: String?, checkingLifetime: Bool) -> TokenJudgement { .holder(holder) }
    }

    static let atCap = String(repeating: "s", count: Limits.maximumNameBytes)
    static let overCap = atCap + "s"

    @Test func aHolderNamedBeyondTheCapIsRefusedByEveryPolicyTheHubIsGiven() throws {
        func holder(subject: String? = nil, name: String? = nil, grantName: String? = nil) -> TokenHolder {
            var holder = TokenHolder(role: .owner, boards: .all, mayReadMetrics: true, subject: subject, name: name)
            holder.grantName = grantName
            return holder
        }
        let fixture = try HubFixture(access: NamingPolicy(holder: holder(subject: Self.overCap)))
        #expect(fixture.hub.access.judge(token: "t", checkingLifetime: true) == .refused("the token's sub is longer than 256 bytes"))
        fixture.hub.replaceAccess(with: NamingPolicy(holder: holder(name: Self.overCap)))
        #expect(fixture.hub.access.judge(token: "t", checkingLifetime: true) == .refused("the token's name is longer than 256 bytes"))
        fixture.hub.replaceAccess(with: NamingPolicy(holder: holder(grantName: Self.overCap)))
        #expect(fixture.hub.access.judge(token: "t", checkingLifetime: true) == .refused("the token's grant name is longer than 256 bytes"))
        let fits = holder(subject: Self.atCap, name: Self.atCap, grantName: Self.atCap)
        fixture.hub.replaceAccess(with: NamingPolicy(holder: fits))
        #expect(fixture.hub.access.judge(token: "t", checkingLifetime: true) == .holder(fits))
    }

    @Test func byIsCountedWithEachOperationAgainstTheByteRate() throws {
        // 3,000 bytes and next to no refill: what each member gets through is what its
        // operations cost.
        let fixture = try HubFixture { $0.operationByteRate = RateLimit(perSecond: 1, burst: 3_000) }
        func accepted(by name: String) throws -> Int {
            let member = try fixture.join(name)
            let moves = (0..<12).map { _ in member.request(.move(sources: ["i1"], destination: Destination(collection: "done"))) }
            for request in moves { try member.send(.operation(request)) }
            var limited = 0
            var answered = Set<OperationID>()
            while answered.count < moves.count {
                let message = try member.nextMessage()
                guard let opId = message.opId, moves.contains(where: { $0.opId == opId }), answered.insert(opId).inserted else { continue }
                if case .rejected(let rejected) = message, rejected.code == .rateLimited { limited += 1 }
            }
            return moves.count - limited
        }
        // A move message is under 200 bytes: 12 of them fit in 3,000.
        #expect(try accepted(by: "Ada") == 12)
        // With 256 bytes of `by` each costs over 400: at most 7 fit.
        #expect(try accepted(by: Self.atCap) <= 7)
    }
}
