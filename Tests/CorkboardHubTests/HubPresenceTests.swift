import CorkboardHub
import CorkboardModel
import CorkboardWire
import Foundation
import HubTestSupport
import TestSupport
import Testing

/// Live drag state (docs/protocol.md#6-presence-drag-state), in-process: leases, placeholders, pacing, the items sent
/// once per drag, and exactly one `drag.cleared` per accepted `drag.start`, with its reason.
@Suite(.threadsOfTheirOwn) struct HubPresenceTests {
    /// Ada and Bob on the standard board (todo: i1…i5, done: i6…i8), each aware of the other.
    static func pair(_ configure: @escaping (inout HubConfiguration) -> Void = { _ in }) throws
        -> (HubFixture, BoardTestClient, BoardTestClient)
    {
        let fixture = try HubFixture(configure: configure)
        let ada = try fixture.join("Ada")
        let bob = try fixture.join("Bob")
        _ = try ada.waitFor(type: "peer.joined")
        return (fixture, ada, bob)
    }

    @Test func leasedItemsAreBusyForEveryoneElse() throws {
        let (fixture, ada, bob) = try Self.pair()
        defer { withExtendedLifetime(fixture) {} }
        try ada.send(.dragStart(items: ["i3"]))
        _ = try bob.waitFor(type: "drag")
        try bob.send(.dragStart(items: ["i4", "i3"]))
        guard case .rejected(let busy) = try bob.waitFor(type: "rejected") else {
            Issue.record("no rejection")
            return
        }
        #expect(busy == .dragStartBusy(holder: ada.clientID))
        #expect(try bob.reject(.move(sources: ["i3"], destination: Destination(collection: "done"))).code == .busy)
        // Items nobody holds still move; i4 was not leased by the refused drag.start.
        try bob.commit(.move(sources: ["i4"], destination: Destination(collection: "done")))
        // After the holder cancels, the item is free again.
        try ada.send(.dragEnd)
        #expect((try bob.waitFor(type: "drag.cleared")).dragClear.map { $0 == (ada.clientID, .cancel) } == true)
        try bob.commit(.move(sources: ["i3"], destination: Destination(collection: "done")))
    }

    /// A drag of a folder covers what it holds; a drag into a folder shows inside it; the
    /// folder's delete clears the drag of it (docs/protocol.md#6-presence-drag-state).
    @Test func aDragOfAFolderCoversItsContents() throws {
        let (fixture, ada, bob) = try Self.pair()
        defer { withExtendedLifetime(fixture) {} }
        try bob.commit(.insert(items: [Item(id: "f", label: "Folder", folder: Folder())], destination: Destination(collection: "todo")))
        try bob.commit(.move(sources: ["i2"], destination: Destination(collection: "f")))
        try ada.send(.dragStart(items: ["f"]))
        _ = try bob.waitFor(type: "drag")
        try bob.send(.dragStart(items: ["i2"]))
        guard case .rejected(let busy) = try bob.waitFor(type: "rejected") else {
            Issue.record("no rejection")
            return
        }
        #expect(busy == .dragStartBusy(holder: ada.clientID))
        #expect(try bob.reject(.move(sources: ["i2"], destination: Destination(collection: "done"))).code == .busy)
        // Bob's drag of another card over the folder's list shows inside the folder.
        try bob.send(.dragStart(items: ["i3"]))
        _ = try ada.waitFor(type: "drag")
        try bob.send(.dragOver(collection: "f", index: 1))
        let over = try ada.waitFor("bob's placeholder") { ($0).dragOverTarget != nil }
        #expect(over.dragOverTarget?.over == DragTarget(collection: "f", index: 1, before: nil))
        try bob.send(.dragEnd)
        // Bob deletes the folder: Ada's drag of it ends, deleted, and i2 went with it.
        let event = try bob.commit(.delete(items: ["f"]))
        #expect(try ada.waitFor("the delete") { if case .committed = $0 { true } else { false } } == .committed(event))
        #expect((try bob.waitFor(type: "drag.cleared")).dragClear.map { $0 == (ada.clientID, .deleted) } == true)
        #expect(try bob.reject(.move(sources: ["i2"], destination: Destination(collection: "done"))).code == .gone)
    }

    @Test func aDeleteClearsTheDragsItHitsAfterItsCommit() throws {
        let (fixture, ada, bob) = try Self.pair()
        defer { withExtendedLifetime(fixture) {} }
        try ada.send(.dragStart(items: ["i5"]))
        _ = try bob.waitFor(type: "drag")
        let event = try bob.commit(.delete(items: ["i5"]))
        let first = try ada.waitFor("the delete") { if case .committed = $0 { true } else { ($0).dragClear != nil } }
        #expect(first == .committed(event), "the holder sees the delete (it was not told its own clear)")
        #expect((try bob.waitFor(type: "drag.cleared")).dragClear.map { $0 == (ada.clientID, .deleted) } == true)
    }

    @Test func leavingClearsTheDragBeforePeerLeft() throws {
        let (fixture, ada, bob) = try Self.pair()
        defer { withExtendedLifetime(fixture) {} }
        try ada.send(.dragStart(items: ["i1"]))
        _ = try bob.waitFor(type: "drag")
        ada.drop()
        #expect((try bob.nextMessage()).dragClear.map { $0 == (ada.clientID, .left) } == true)
        #expect(try bob.nextMessage() == .peerLeft(client: ada.clientID))
        try bob.commit(.move(sources: ["i1"], destination: Destination(collection: "done")))
    }

    @Test func aDragNobodyUpdatesTimesOut() throws {
        let (fixture, ada, bob) = try Self.pair { $0.dragTimeout = .milliseconds(300) }
        defer { withExtendedLifetime(fixture) {} }
        try ada.send(.dragStart(items: ["i1"]))
        _ = try bob.waitFor(type: "drag")
        #expect((try bob.waitFor(type: "drag.cleared")).dragClear.map { $0 == (ada.clientID, .timeout) } == true)
        // A holder who has been still is not told: it may still drop with a move.
        #expect(try ada.sync().allSatisfy { ($0).dragClear == nil })
        try bob.commit(.move(sources: ["i1"], destination: Destination(collection: "done")))
    }

    @Test func badDragMessagesAreAnsweredAndChangeNothing() throws {
        let (fixture, ada, bob) = try Self.pair()
        defer { withExtendedLifetime(fixture) {} }
        try ada.send(.dragOver(collection: "todo", index: 0))
        #expect(try ada.waitFor(type: "error").typeName == "error")
        try ada.send(.dragStart(items: ["nope"]))
        guard case .rejected(let gone) = try ada.waitFor(type: "rejected") else {
            Issue.record("no rejection")
            return
        }
        #expect(gone.ref == "drag.start" && gone.code == .gone)
        try ada.send(.dragStart(items: ["i1"]))
        _ = try bob.waitFor(type: "drag")
        try ada.send(.dragOver(collection: "todo", index: 5))
        #expect(try ada.waitFor(type: "error").typeName == "error", "todo has 4 items besides i1: 0…4")
        try ada.send(.dragOver(collection: "nowhere", index: 0))
        #expect(try ada.waitFor(type: "error").typeName == "error")
        #expect(try bob.sync().allSatisfy { ($0).dragUpdate == nil && ($0).dragOverTarget == nil })
    }
}
