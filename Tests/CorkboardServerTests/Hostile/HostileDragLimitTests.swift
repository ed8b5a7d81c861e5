import CorkboardHub
import CorkboardModel
import CorkboardServer
import CorkboardWire
import Foundation
import TestSupport
import Testing

/// The bounds on what one drag may hold: how many items (`--max-drag-items`), how many items a
/// connection's drags may pick up a second, and for how long (`--max-drag-seconds`, however
/// many `drag.over` keep it alive).
@Suite(.threadsOfTheirOwn) struct HostileDragLimitTests {
    @Test func aDragOfMoreItemsThanTheLimitIsRefusedInvalid() throws {
        let (fixture, ada, bob) = try HubPresenceTests.pair { $0.hub.maxDragItems = 3 }
        defer { withExtendedLifetime(fixture) {} }
        try ada.send(.dragStart(items: ["i1", "i2", "i3", "i4"]))
        let refusal = try #require(try ada.waitFor(type: "rejected").rejection)
        #expect(refusal.ref == "drag.start" && refusal.code == .invalid)
        #expect(refusal.message == "a drag holds at most 3 items, not 4")
        // Nothing was leased or shown; the limit itself is allowed.
        try bob.commit(.move(sources: ["i4"], destination: Destination(collection: "done")))
        #expect(try bob.sync().allSatisfy { ($0).dragUpdate == nil })
        try ada.send(.dragStart(items: ["i1", "i2", "i3"]))
        #expect((try bob.waitFor(type: "drag")).dragUpdate?.items == ["i1", "i2", "i3"])
    }

    @Test func dragsPickingUpMoreItemsASecondThanTheLimitAreRateLimited() throws {
        let (fixture, ada, bob) = try HubPresenceTests.pair { $0.hub.maxDragItems = 4 }
        defer { withExtendedLifetime(fixture) {} }
        try ada.send(.dragStart(items: ["i1", "i2", "i3", "i4"]))
        _ = try bob.waitFor(type: "drag")
        // Four items a second: a second drag right after the first is refused, and the first one
        // ends (the member meant to let it go).
        try ada.send(.dragStart(items: ["i5", "i6"]))
        let refusal = try #require(try ada.waitFor(type: "rejected").rejection)
        #expect(refusal.ref == "drag.start" && refusal.code == .rateLimited)
        #expect(refusal.message?.contains("at most 4 items per second") == true)
        #expect((try bob.waitFor(type: "drag.cleared")).dragClear.map { $0 == (ada.clientID, .cancel) } == true)
        try bob.commit(.move(sources: ["i1"], destination: Destination(collection: "done")))
        // A second later the budget is back.
        Thread.sleep(forTimeInterval: 1.1)
        try ada.send(.dragStart(items: ["i5", "i6"]))
        #expect((try bob.waitFor(type: "drag")).dragUpdate?.items == ["i5", "i6"])
    }

    @Test func aDragKeptAliveByDragOverExpiresForEveryoneAndTheItemMovesAgain() async throws {
        try await offPool {
            let (fixture, ada, bob) = try HubPresenceTests.pair { $0.hub.maxDragDuration = .seconds(2) }
            defer { withExtendedLifetime(fixture) {} }
            let started = Date()
            try ada.send(.dragStart(items: ["i1"]))
            _ = try bob.waitFor(type: "drag")
            #expect(try bob.reject(.move(sources: ["i1"], destination: Destination(collection: "done"))).code == .busy)
            // Ada keeps the drag alive, 20 placeholder moves a second, well past the expiry.
            let keepAlive = UncheckedSendable(ada)
            let pointer = Background { () -> Int in
                var sent = 0
                while Date().timeIntervalSince(started) < 4, sent < 200 {
                    try keepAlive.value.send(.dragOver(collection: "done", index: sent % 3))
                    sent += 1
                    Thread.sleep(forTimeInterval: 0.05)
                }
                return sent
            }
            bob.ws.setReceiveTimeout(10)
            let cleared = try bob.waitFor(type: "drag.cleared")
            let heldFor = Date().timeIntervalSince(started)
            #expect(cleared.dragClear.map { $0 == (ada.clientID, .expired) } == true)
            #expect(heldFor >= 1.9 && heldFor < 6, "cleared after \(heldFor) s")
            // The item is free for the others while the placeholder moves still come.
            try bob.commit(.move(sources: ["i1"], destination: Destination(collection: "done")))
            #expect(try pointer.wait() > 40)
            // The holder was told too, and its later placeholder moves are errors, not a drag.
            ada.ws.setReceiveTimeout(10)
            let told = try ada.waitFor(type: "drag.cleared")
            #expect(told.dragClear.map { $0 == (ada.clientID, .expired) } == true)
            #expect(try bob.sync().allSatisfy { ($0).dragOverTarget == nil && ($0).dragUpdate == nil })
        }
    }
}
