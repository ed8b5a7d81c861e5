import CorkboardModel
import CorkboardServer
import CorkboardWire
import Foundation
import TestSupport
import Testing

/// Live drag state (docs/protocol.md#6-presence-drag-state) end to end, between two clients on real sockets (the rest of
/// presence is tested in-process: CorkboardHubTests' HubPresenceTests). The helpers serve
/// the Hostile tests too.
@Suite(.threadsOfTheirOwn) struct HubPresenceTests {
    /// Ada and Bob on the standard board (todo: i1…i5, done: i6…i8), each aware of the other.
    static func pair(_ configure: @escaping (inout ServerConfiguration) -> Void = { _ in }) throws
        -> (HubFixture, BoardTestClient, BoardTestClient)
    {
        let fixture = try HubFixture(configure: configure)
        let ada = try fixture.join("Ada")
        let bob = try fixture.join("Bob")
        _ = try ada.waitFor(type: "peer.joined")
        return (fixture, ada, bob)
    }

    @Test func othersSeeTheDragAndItsPlaceholderThenTheDropAfterTheCommit() throws {
        let (fixture, ada, bob) = try Self.pair()
        defer { withExtendedLifetime(fixture) {} }
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
        let cy = try fixture.join("Cy")
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
}
