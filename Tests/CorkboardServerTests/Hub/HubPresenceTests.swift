import CorkboardHub
import CorkboardModel
import CorkboardServer
import CorkboardWire
import Foundation
import TestSupport
import Testing

/// Live drag state (docs/protocol.md#6-presence-drag-state), over both harnesses: leases,
/// placeholders, pacing, the items sent once per drag, and exactly one `drag.cleared` per
/// accepted `drag.start`, with its reason.
@Suite(.threadsOfTheirOwn) struct HubPresenceTests {
    /// Ada and Bob on the standard board (todo: i1…i5, done: i6…i8), each aware of the other.
    static func pair(on harness: HubHarness, _ configure: (inout HubConfiguration) -> Void = { _ in }) throws
        -> (any HubUnderTest, BoardTestClient, BoardTestClient)
    {
        let hub = try harness.start(configure: configure)
        let (ada, bob) = try hub.joinAdaAndBob()
        return (hub, ada, bob)
    }

    /// The same pair over sockets, with the server's options: for the Hostile suites.
    static func pair(_ configure: (inout ServerConfiguration) -> Void = { _ in }) throws -> (HubFixture, BoardTestClient, BoardTestClient) {
        let fixture = try HubFixture(configure: configure)
        let (ada, bob) = try fixture.joinAdaAndBob()
        return (fixture, ada, bob)
    }

    @Test(arguments: HubHarness.allCases)
    func othersSeeTheDragAndItsPlaceholderThenTheDropAfterTheCommit(_ harness: HubHarness) throws {
        let (hub, ada, bob) = try Self.pair(on: harness)
        defer { withExtendedLifetime(hub) {} }
        try ada.send(.dragStart(items: ["i1", "i2"]))
        let started = try #require((try bob.waitFor(type: "drag")).dragUpdate)
        #expect(started == DragUpdate(client: ada.clientID, name: "Ada", items: ["i1", "i2"], over: nil))

        // Index 1 of "todo" without the dragged items (i3 i4 i5) is i4.
        try ada.send(.dragOver(collection: "todo", index: 1))
        let over = try #require((try bob.waitFor(type: "drag.over")).dragOverTarget)
        #expect(over.client == ada.clientID && over.over == DragTarget(collection: "todo", index: 1, before: "i4"))
        try ada.send(.dragOver(collection: "done", index: 3))
        let end = try #require((try bob.waitFor(type: "drag.over")).dragOverTarget)
        #expect(end.over == DragTarget(collection: "done", index: 3, before: nil))
        // The items went once, with the start.
        #expect(bob.log.compactMap(\.dragUpdate).count == 1)
        #expect(!bob.rawLog.contains { $0.contains("drag.over") && $0.contains("i1") })

        // A newcomer sees the drag in welcome.peers.
        let cy = try hub.join("Cy")
        #expect(
            cy.welcome.peers.first { $0.client == ada.clientID }?.drag
                == DragState(items: ["i1", "i2"], over: DragTarget(collection: "done", index: 3, before: nil)))

        // The drop: committed first, then drag.cleared(drop), and nothing about the drag after it.
        let event = try ada.commit(.move(sources: ["i1", "i2"], destination: Destination(collection: "done")))
        let next = try bob.waitFor("the drop") { if case .committed = $0 { true } else { ($0).dragClear != nil } }
        #expect(next == .committed(event))
        #expect((try bob.nextMessage()).dragClear.map { $0 == (ada.clientID, .drop) } == true)
        #expect(try bob.sync().allSatisfy { ($0).dragUpdate == nil && ($0).dragOverTarget == nil && ($0).dragClear == nil })
    }

    @Test(arguments: HubHarness.allCases)
    func leasedItemsAreBusyForEveryoneElse(_ harness: HubHarness) throws {
        let (hub, ada, bob) = try Self.pair(on: harness)
        defer { withExtendedLifetime(hub) {} }
        try ada.send(.dragStart(items: ["i3"]))
        _ = try bob.waitFor(type: "drag")
        try bob.send(.dragStart(items: ["i4", "i3"]))
        let busy = try #require(try bob.waitFor(type: "rejected").rejection)
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
    @Test(arguments: HubHarness.allCases)
    func aDragOfAFolderCoversItsContents(_ harness: HubHarness) throws {
        let (hub, ada, bob) = try Self.pair(on: harness)
        defer { withExtendedLifetime(hub) {} }
        try bob.commit(.insert(items: [Item(id: "f", label: "Folder", folder: Folder())], destination: Destination(collection: "todo")))
        try bob.commit(.move(sources: ["i2"], destination: Destination(collection: "f")))
        try ada.send(.dragStart(items: ["f"]))
        _ = try bob.waitFor(type: "drag")
        try bob.send(.dragStart(items: ["i2"]))
        let busy = try #require(try bob.waitFor(type: "rejected").rejection)
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

    /// `collection.remove` with `withItems` names no item, yet takes them: a drag holding one is
    /// cleared `deleted` after its commit, and the removal was not `busy`.
    @Test(arguments: HubHarness.allCases)
    func aColumnRemovedWithItsItemsClearsTheDragsItHits(_ harness: HubHarness) throws {
        let (hub, ada, bob) = try Self.pair(on: harness)
        defer { withExtendedLifetime(hub) {} }
        try ada.send(.dragStart(items: ["i6"]))
        _ = try bob.waitFor(type: "drag")
        let event = try bob.commit(.removeCollectionAndItems(collection: "done"))
        #expect(try ada.waitFor("the removal") { if case .committed = $0 { true } else { false } } == .committed(event))
        #expect((try bob.waitFor(type: "drag.cleared")).dragClear.map { $0 == (ada.clientID, .deleted) } == true)
        #expect(try bob.reject(.move(sources: ["i6"], destination: Destination(collection: "todo"))).code == .gone)
    }

    @Test(arguments: HubHarness.allCases)
    func aDeleteClearsTheDragsItHitsAfterItsCommit(_ harness: HubHarness) throws {
        let (hub, ada, bob) = try Self.pair(on: harness)
        defer { withExtendedLifetime(hub) {} }
        try ada.send(.dragStart(items: ["i5"]))
        _ = try bob.waitFor(type: "drag")
        let event = try bob.commit(.delete(items: ["i5"]))
        let first = try ada.waitFor("the delete") { if case .committed = $0 { true } else { ($0).dragClear != nil } }
        #expect(first == .committed(event), "the holder sees the delete (it was not told its own clear)")
        #expect((try bob.waitFor(type: "drag.cleared")).dragClear.map { $0 == (ada.clientID, .deleted) } == true)
    }

    @Test(arguments: HubHarness.allCases)
    func leavingClearsTheDragBeforePeerLeft(_ harness: HubHarness) throws {
        let (hub, ada, bob) = try Self.pair(on: harness)
        defer { withExtendedLifetime(hub) {} }
        try ada.send(.dragStart(items: ["i1"]))
        _ = try bob.waitFor(type: "drag")
        ada.drop()
        #expect((try bob.nextMessage()).dragClear.map { $0 == (ada.clientID, .left) } == true)
        #expect(try bob.nextMessage() == .peerLeft(client: ada.clientID))
        try bob.commit(.move(sources: ["i1"], destination: Destination(collection: "done")))
    }

    @Test(arguments: HubHarness.allCases)
    func aDragNobodyUpdatesTimesOut(_ harness: HubHarness) throws {
        let (hub, ada, bob) = try Self.pair(on: harness) { $0.dragTimeout = .milliseconds(300) }
        defer { withExtendedLifetime(hub) {} }
        try ada.send(.dragStart(items: ["i1"]))
        _ = try bob.waitFor(type: "drag")
        #expect((try bob.waitFor(type: "drag.cleared")).dragClear.map { $0 == (ada.clientID, .timeout) } == true)
        // A holder who has been still is not told: it may still drop with a move.
        #expect(try ada.sync().allSatisfy { ($0).dragClear == nil })
        try bob.commit(.move(sources: ["i1"], destination: Destination(collection: "done")))
    }

    /// 500 placeholder moves over about a second: the others get at most about 20 per second,
    /// and the last one they get is the latest.
    @Test(arguments: HubHarness.allCases)
    func dragUpdatesArePacedAndTheLatestAlwaysArrives(_ harness: HubHarness) throws {
        let (hub, ada, bob) = try Self.pair(on: harness)
        defer { withExtendedLifetime(hub) {} }
        let started = Date()
        try ada.send(.dragStart(items: ["i1"]))
        // 500 updates spread over about a second, as a fast pointer would send them.
        for index in 0..<500 {
            try ada.send(.dragOver(collection: "done", index: index % 4))
            Thread.sleep(forTimeInterval: 0.002)
        }
        try ada.send(.dragOver(collection: "todo", index: 2))
        var updates: [DragTarget] = []
        for _ in 0..<BoardTestClient.readBound where updates.last?.collection != "todo" {
            if let update = (try bob.nextMessage()).dragOverTarget { updates.append(update.over) }
        }
        let seconds = Date().timeIntervalSince(started)
        #expect(updates.count <= Int(seconds * 20) + 2, "\(updates.count) drag.over messages in \(seconds) s")
        #expect(updates.last == DragTarget(collection: "todo", index: 2, before: "i4"))
        #expect(try bob.sync().allSatisfy { ($0).dragUpdate == nil && ($0).dragOverTarget == nil })
    }

    @Test(arguments: HubHarness.allCases)
    func badDragMessagesAreAnsweredAndChangeNothing(_ harness: HubHarness) throws {
        let (hub, ada, bob) = try Self.pair(on: harness)
        defer { withExtendedLifetime(hub) {} }
        try ada.send(.dragOver(collection: "todo", index: 0))
        #expect(try ada.waitFor(type: "error").typeName == "error")
        try ada.send(.dragStart(items: ["nope"]))
        let gone = try #require(try ada.waitFor(type: "rejected").rejection)
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
