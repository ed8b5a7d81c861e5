import CorkboardHub
import CorkboardModel
import CorkboardWire
import HubTestSupport
import TestSupport
import Testing

/// The `welcome`'s peers are kept per room while nobody drags and written again when
/// somebody joins or leaves (issue #36): a welcome served from the kept list is the one written
/// fresh, and a join, a leave, a drag, its end and a commit each show in the next welcome.
/// (A member's name never changes while it is on the board: a new name is a new join.)
@Suite(.threadsOfTheirOwn) struct HubWelcomePeersTests {
    /// Single drag messages and drags that do not time out: the waits below read a `drag`.
    static func fixture() throws -> HubFixture {
        try HubFixture {
            $0.dragBatchAudience = nil
            $0.dragTimeout = .seconds(600)
            $0.maxDragDuration = nil
        }
    }

    /// The list a welcome must carry on a board where nobody drags: the latest to join first.
    static func listed(_ members: [BoardTestClient]) -> [Peer] {
        members.reversed().map { Peer(client: $0.clientID, name: $0.name) }
    }

    @Test func aKeptListIsTheFreshOneAndEachJoinAndLeaveShows() throws {
        let fixture = try Self.fixture()
        let ada = try fixture.join("Ada")
        let bob = try fixture.join("Bob")
        let carol = try fixture.join("Carol")
        #expect(carol.welcome.peers == Self.listed([ada, bob]))
        // Carol's join changed the list: Dave's is written again, with her.
        let dave = try fixture.join("Dave")
        #expect(dave.welcome.peers == Self.listed([ada, bob, carol]))
        #expect(dave.welcome.count == 4)
        // Observers change nothing: two in a row are served the one kept list, the fresh one.
        let first = try fixture.join("first watcher", observe: true)
        let second = try fixture.join("second watcher", observe: true)
        #expect(first.welcome.peers == Self.listed([ada, bob, carol, dave]))
        #expect(second.welcome.peers == first.welcome.peers)
        #expect(second.welcome.client != first.welcome.client, "each its own part")
        // A leave.
        try bob.close()
        _ = try ada.waitFor("Bob's leave") { if case .peerLeft(let client) = $0 { client == bob.clientID } else { false } }
        let eve = try fixture.join("Eve")
        #expect(eve.welcome.peers == Self.listed([ada, carol, dave]))
        #expect(eve.welcome.count == 4)
    }

    @Test func aDragShowsInTheNextWelcomeAndItsEndToo() throws {
        let fixture = try Self.fixture()
        let ada = try fixture.join("Ada")
        let bob = try fixture.join("Bob")
        // Kept before the drag: Carol's welcome is written with nobody dragging.
        let carol = try fixture.join("Carol")
        #expect(carol.welcome.peers == Self.listed([ada, bob]))
        _ = try bob.waitFor(type: "peer.joined")
        try ada.send(.dragStart(items: ["i1"]))
        _ = try bob.waitFor("Ada's drag") { if case .drag(let update) = $0 { update.client == ada.clientID } else { false } }
        let dave = try fixture.join("Dave")
        #expect(dave.welcome.peers.first == Peer(client: ada.clientID, name: "Ada", drag: DragState(items: ["i1"], over: nil)))
        #expect(dave.welcome.peers.dropFirst() == Self.listed([bob, carol])[...])
        // Its placeholder moves: the next welcome has the move.
        try ada.send(.dragOver(collection: "done", index: 1))
        _ = try bob.waitFor("Ada's placeholder") { if case .dragOver = $0 { true } else { false } }
        let eve = try fixture.join("Eve")
        #expect(eve.welcome.peers.first?.drag?.over?.collection == "done")
        // The drag ends: the list is the latest to join again.
        try ada.send(.dragEnd)
        _ = try bob.waitFor(type: "drag.cleared")
        let frank = try fixture.join("Frank")
        #expect(frank.welcome.peers == Self.listed([ada, bob, carol, dave, eve]))
    }

    @Test func aCommitShowsInTheNextWelcomeBesideTheKeptList() throws {
        let fixture = try Self.fixture()
        let ada = try fixture.join("Ada")
        let bob = try fixture.join("Bob")
        let before = try fixture.join("Watcher", observe: true)
        let event = try bob.commit(.renameBoard(title: "Renamed"))
        let after = try fixture.join("Later watcher", observe: true)
        // The same peers (the list kept across the commit), the board and seq of after it.
        #expect(after.welcome.peers == before.welcome.peers)
        #expect(after.welcome.peers == Self.listed([ada, bob]))
        #expect(after.welcome.seq == event.seq && before.welcome.seq < event.seq)
        #expect(after.welcome.board?.title == "Renamed")
    }
}
