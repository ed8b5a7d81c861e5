import CorkboardHub
import CorkboardModel
import CorkboardWire
import Foundation
import HubTestSupport
import TestSupport
import Testing

/// docs/protocol.md#3-joining: hello, welcome, membership; docs/protocol.md#outcomes: a
/// commit reaches every member.
@Suite(.threadsOfTheirOwn) struct HubJoinTests {
    // MARK: hello errors (docs/protocol.md#refusals-of-hello)

    static let notHello: [String] = [
        #"{"type":"move","opId":"x-1","baseSeq":0,"sources":["i1"],"destination":{"collection":"done","before":null}}"#,
        #"{"type":"drag.end"}"#,
        #"{"type":"welcome"}"#,
        "this is not JSON",
    ]

    @Test func welcomeListsThePeersAndMembersHearJoinsAndLeaves() throws {
        let fixture = try HubFixture()
        let ada = try fixture.join("Ada")
        let bob = try fixture.join("Bob")
        #expect(bob.welcome.peers == [Peer(client: ada.clientID, name: "Ada", drag: nil)])
        #expect(bob.clientID != ada.clientID)
        #expect(try ada.nextMessage() == .peerJoined(client: bob.clientID, name: "Bob"))

        let cy = try fixture.join("Cy")
        #expect(Set(cy.welcome.peers) == [Peer(client: ada.clientID, name: "Ada"), Peer(client: bob.clientID, name: "Bob")])
        #expect(Set([ada.clientID, bob.clientID, cy.clientID]).count == 3)
        #expect(try ada.nextMessage() == .peerJoined(client: cy.clientID, name: "Cy"))
        #expect(try bob.nextMessage() == .peerJoined(client: cy.clientID, name: "Cy"))

        // A clean close.
        try bob.close()
        #expect(try ada.nextMessage() == .peerLeft(client: bob.clientID))
        #expect(try cy.nextMessage() == .peerLeft(client: bob.clientID))

        // A dropped connection.
        cy.drop()
        #expect(try ada.nextMessage() == .peerLeft(client: cy.clientID))

        // Nothing else, and a newcomer sees only Ada.
        #expect(try ada.sync().isEmpty)
        let dee = try fixture.join("Dee")
        #expect(dee.welcome.peers == [Peer(client: ada.clientID, name: "Ada")])
        #expect(try ada.nextMessage() == .peerJoined(client: dee.clientID, name: "Dee"))
    }

    @Test func aNewMemberStartsFromTheCurrentBoard() throws {
        let fixture = try HubFixture()
        let ada = try fixture.join("Ada")
        try ada.commit(.move(sources: ["i5"], destination: Destination(collection: "todo", before: "i1")))
        try ada.commit(.delete(items: ["i7"]))
        let bob = try fixture.join("Bob")
        #expect(bob.welcome.seq == 2)
        #expect(bob.welcome.resumed == false)
        #expect(bob.board == ada.board)
        #expect(bob.board.ids("todo") == ["i5", "i1", "i2", "i3", "i4"])
        try bob.commit(.move(sources: ["i6"], destination: Destination(collection: "todo")))
        _ = try ada.waitFor(type: "committed")
        #expect(ada.board == bob.board)
        #expect(ada.board == (try fixture.document().board))
    }

    @Test(arguments: notHello)
    func aFirstMessageThatIsNotHelloIsAnErrorAndClose1008(first: String) throws {
        let fixture = try HubFixture()
        let watcher = try fixture.join("Watcher")
        let client = fixture.connect()
        client.receive(first)
        let answer = try decodeServerText(client.nextText())
        #expect(answer.typeName == "error", "got \(answer)")
        #expect(client.nextClose() == .policyViolation)
        // Not joined: nobody heard of it, nothing changed.
        #expect(try watcher.sync().isEmpty)
        #expect(try fixture.document() == fixture.created)
    }

    @Test func helloForAnUnknownBoardIsNotFoundAndClose1008() throws {
        let fixture = try HubFixture()
        let client = fixture.connect()
        client.receive(#"{"type":"hello","board":"no-such-board","name":"Ada"}"#)
        let answer = try decodeServerText(client.nextText())
        #expect(answer.errorMessage?.code == .notFound, "got \(answer)")
        #expect(client.nextClose() == .policyViolation)
    }

    @Test func aSecondHelloIsInvalidAndTheConnectionStays() throws {
        let fixture = try HubFixture()
        let ada = try fixture.join("Ada")
        let bob = try fixture.join("Bob")
        _ = try ada.waitFor(type: "peer.joined")
        try bob.send(.hello(Hello(board: fixture.board.id, name: "Bob again")))
        let answer = try bob.nextMessage()
        #expect(answer.errorMessage?.code == .invalid, "got \(answer)")
        // Still a member, same client: it commits and Ada sees it from the same client id.
        let event = try bob.commit(.move(sources: ["i2"], destination: Destination(collection: "done")))
        #expect(event.client == bob.clientID)
        #expect(try ada.nextMessage() == .committed(event), "no second peer.joined before the event")
        #expect(try ada.sync().isEmpty)
    }

    @Test func clientsJoiningWhileOthersCommitGetASnapshotThatTheEventsFollow() throws {
        let fixture = try HubFixture()
        let writer = try fixture.join("Writer")
        let failures = Locked<[String]>([])
        let stop = Locked(false)
        let written = Locked(0)
        let writing = DispatchGroup()
        writing.enter()
        Thread {
            defer { writing.leave() }
            do {
                for round in 0..<2_000 where !stop.withLock({ $0 }) {
                    let answer = try writer.perform(
                        .move(
                            sources: ["i\(round % 8 + 1)"], destination: Destination(collection: round % 3 == 0 ? "todo" : "done")))
                    if case .rejected = answer { failures.withLock { $0.append("\(answer)") } }
                    written.withLock { $0 += 1 }
                }
            } catch {
                failures.withLock { $0.append("\(error)") }
            }
        }.start()
        // Each joiner's replica throws if an event does not fit its snapshot (a gap or a repeat).
        var joiners: [BoardTestClient] = []
        for index in 0..<10 {
            // Each joins a few writes after the last.
            _ = eventually { written.withLock { $0 } >= 5 * (index + 1) }
            joiners.append(try fixture.join("Joiner \(index)"))
        }
        stop.withLock { $0 = true }
        #expect(writing.wait(timeout: .now() + 30) == .success)
        #expect(failures.withLock { $0 }.isEmpty)
        #expect(Set(joiners.map(\.welcome.seq)).count > 1, "the joins were spread over the writes")
        try fixture.expectAgreement([writer] + joiners)
    }
}
