import CorkboardModel
import CorkboardWire
import Foundation
import TestSupport
import Testing

/// docs/protocol.md#observers over real sockets: a `hello` with `"observe": true` follows the
/// board (welcome, commits, the others' presence) without ever being a peer, and may change
/// nothing, whatever its token grants.
@Suite(.threadsOfTheirOwn) struct HubObserverTests {
    @Test func anObserverSeesEverythingButIsNeverShownAsAPeer() throws {
        let fixture = try HubFixture()
        let ada = try fixture.join("Ada")
        let wall = try fixture.join("Wall", observe: true)
        #expect(wall.welcome.peers.map(\.name) == ["Ada"], "an observer sees the peers")
        #expect(wall.welcome.role == .viewer, "told what it may do, though open mode makes everyone owner")
        let bob = try fixture.join("Bob")
        #expect(bob.welcome.peers.map(\.name) == ["Ada"], "nobody sees the observer")
        #expect(try wall.waitFor(type: "peer.joined") == .peerJoined(client: bob.clientID, name: "Bob"))

        // Commits and drags of the others reach it.
        let event = try ada.commit(.move(sources: ["i1"], destination: Destination(collection: "done")))
        try wall.waitUntilSeq(event.seq)
        try ada.send(.dragStart(items: ["i2"]))
        guard case .drag(let drag) = try wall.waitFor(type: "drag") else { throw HubTestFailure("no drag") }
        #expect(drag.client == ada.clientID)
        try ada.send(.dragEnd)
        _ = try wall.waitFor(type: "drag.cleared")

        try wall.close()
        try bob.close()
        // Ada heard of Bob coming and going, and of nothing else.
        _ = try ada.sync()
        let heard = ada.log.filter { $0.typeName.hasPrefix("peer.") }
        #expect(heard == [.peerJoined(client: bob.clientID, name: "Bob"), .peerLeft(client: bob.clientID)])
    }

    @Test func anObserverMayNeitherOperateNorDrag() throws {
        let fixture = try HubFixture()
        let ada = try fixture.join("Ada")
        let wall = try fixture.join("Wall", observe: true)
        for operation: RequestedOperation in [
            .move(sources: ["i1"], destination: Destination(collection: "done")), .lock(locked: true),
            .insert(items: [Item(id: "x", label: "x")], destination: Destination(collection: "todo")),
        ] {
            let rejected = try wall.reject(operation)
            #expect(rejected.code == .forbidden)
            #expect(rejected.message == "an observer may not change the board")
        }
        try wall.send(.dragStart(items: ["i1"]))
        guard case .rejected(let refusal) = try wall.waitFor(type: "rejected") else { throw HubTestFailure("no refusal") }
        #expect(refusal.ref == "drag.start" && refusal.code == .forbidden)
        #expect(refusal.message == "an observer may not drag")
        // Nothing of it reached the board or Ada.
        #expect(try fixture.document().seq == 0)
        #expect(try ada.sync().isEmpty)
    }

    @Test func anObserverResumesLikeAnyone() throws {
        let fixture = try HubFixture()
        let ada = try fixture.join("Ada")
        let wall = try fixture.join("Wall", observe: true)
        try ada.commit(.move(sources: ["i1"], destination: Destination(collection: "done")))
        try wall.waitUntilSeq(1)
        wall.drop()
        try ada.commit(.move(sources: ["i2"], destination: Destination(collection: "done")))
        let back = try fixture.join("Wall", resumeFrom: wall, observe: true)
        #expect(back.welcome.resumed)
        try back.waitUntilSeq(2)
        _ = try ada.sync()
        #expect(ada.log.filter { $0.typeName.hasPrefix("peer.") }.isEmpty, "the observer's coming and going is nobody's business")
    }
}
