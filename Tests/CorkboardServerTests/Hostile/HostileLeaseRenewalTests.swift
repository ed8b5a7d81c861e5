import CorkboardModel
import CorkboardWire
import Foundation
import TestSupport
import Testing

/// A holder answering its own `drag.cleared` `expired` with a new `drag.start` at once, to
/// keep the items for ever: the cool-down refuses the new lease, and the others move them.
@Suite(.threadsOfTheirOwn) struct HostileLeaseRenewalTests {
    @Test func theHolderOfAnExpiredDragCannotLeaseItsItemsAgainAtOnce() async throws {
        try await offPool {
            let (fixture, mallory, victim) = try HubPresenceTests.pair { $0.hub.maxDragDuration = .seconds(1) }
            defer { withExtendedLifetime(fixture) {} }
            try mallory.send(.dragStart(items: ["i1", "i2"]))
            _ = try victim.waitFor(type: "drag")
            #expect(try victim.reject(.move(sources: ["i1"], destination: Destination(collection: "done"))).code == .busy)
            mallory.ws.setReceiveTimeout(10)
            let expired = try mallory.waitFor(type: "drag.cleared")
            #expect(expired.dragClear.map { $0 == (mallory.clientID, .expired) } == true)
            // At once, as the attack does: refused, for any of the items it held.
            for items: [ItemID] in [["i1", "i2"], ["i2"], ["i2", "i3"]] {
                try mallory.send(.dragStart(items: items))
                let refused = try mallory.waitFor(type: "rejected").rejection
                #expect(refused?.ref == "drag.start" && refused?.code == .rateLimited, "\(String(describing: refused))")
                #expect(refused?.message?.contains("expired") == true)
            }
            // Items it did not hold it may still drag; the victim moves the expired ones.
            try mallory.send(.dragStart(items: ["i3"]))
            #expect(try victim.waitFor(type: "drag").dragUpdate?.items == ["i3"])
            try victim.commit(.move(sources: ["i1", "i2"], destination: Destination(collection: "done")))
            // The victim may pick up what Mallory let expire, too.
            try victim.send(.dragStart(items: ["i1"]))
            #expect(try mallory.waitFor(type: "drag").dragUpdate?.items == ["i1"])
        }
    }
}
