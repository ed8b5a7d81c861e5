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
    static func drag(_ message: ServerMessage) -> DragUpdate? {
        if case .drag(let update) = message { update } else { nil }
    }

    /// A `drag.over`: whose placeholder, and where.
    static func over(_ message: ServerMessage) -> (client: ClientID, over: DragTarget)? {
        if case .dragOver(let client, let over) = message { (client, over) } else { nil }
    }

    static func cleared(_ message: ServerMessage) -> (ClientID, DragClearReason)? {
        if case .dragCleared(let client, let reason) = message { (client, reason) } else { nil }
    }

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
        let started = try #require(Self.drag(try bob.waitFor(type: "drag")))
        #expect(started == DragUpdate(client: ada.clientID, name: "Ada", items: ["i1", "i2"], over: nil))

        // Index 1 of "todo" without the dragged items (i3 i4 i5) is i4.
        try ada.send(.dragOver(collection: "todo", index: 1))
        let over = try #require(Self.over(try bob.waitFor(type: "drag.over")))
        #expect(over.client == ada.clientID && over.over == DragTarget(collection: "todo", index: 1, before: "i4"))
        try ada.send(.dragOver(collection: "done", index: 3))
        let end = try #require(Self.over(try bob.waitFor(type: "drag.over")))
        #expect(end.over == DragTarget(collection: "done", index: 3, before: nil))
        // The items went once, with the start.
        #expect(bob.log.compactMap(Self.drag).count == 1)
        #expect(!bob.rawLog.contains { $0.contains("drag.over") && $0.contains("i1") })

        // A newcomer sees the drag in welcome.peers.
        let cy = try fixture.join("Cy")
        #expect(
            cy.welcome.peers.first { $0.client == ada.clientID }?.drag
                == DragState(items: ["i1", "i2"], over: DragTarget(collection: "done", index: 3, before: nil)))

        // The drop: committed first, then drag.cleared(drop), and nothing about the drag after it.
        let event = try ada.commit(.move(sources: ["i1", "i2"], destination: Destination(collection: "done")))
        let next = try bob.waitFor("the drop") { if case .committed = $0 { true } else { Self.cleared($0) != nil } }
        #expect(next == .committed(event))
        #expect(Self.cleared(try bob.nextMessage()).map { $0 == (ada.clientID, .drop) } == true)
        #expect(try bob.sync().allSatisfy { Self.drag($0) == nil && Self.over($0) == nil && Self.cleared($0) == nil })
    }
}
