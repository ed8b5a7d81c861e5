import CorkboardModel
import CorkboardWire
import Foundation
import Testing
import TestSupport
import WebSocket

/// docs/protocol.md#3-joining: hello, welcome, membership; docs/protocol.md#outcomes: a commit
/// reaches every member.
@Suite(.threadsOfTheirOwn) struct HubJoinTests {
    @Test func welcomeCarriesTheSnapshot() throws {
        let fixture = try HubFixture()
        let ada = try fixture.join("Ada")
        #expect(ada.ws.handshakeResponse.header("Sec-WebSocket-Protocol") == "corkboard.v1")
        let welcome = ada.welcome
        #expect(welcome.resumed == false)
        #expect(welcome.seq == 0)
        #expect(welcome.board == fixture.board)
        #expect(welcome.peers.isEmpty)
        #expect(welcome.role == .owner, "open mode: every client is owner")
        #expect(!welcome.client.isEmpty)
        #expect(welcome.epoch == fixture.created.epoch)
        #expect(welcome.epoch == (try fixture.document().epoch))
        // The welcome is all there is: nothing else is waiting.
        #expect(try ada.sync().isEmpty)
    }

    @Test func clientsMayOmitTheSubprotocol() throws {
        let fixture = try HubFixture()
        let ada = try fixture.join("Ada", subprotocol: nil)
        #expect(ada.ws.handshakeResponse.header("Sec-WebSocket-Protocol") == nil)
        #expect(ada.welcome.board == fixture.board)
        try ada.commit(.move(sources: ["i1"], destination: Destination(collection: "done")))
        #expect(ada.board == (try fixture.document().board))
    }

    @Test func everyMemberGetsTheCommittedEventSenderIncluded() throws {
        let fixture = try HubFixture()
        let ada = try fixture.join("Ada")
        let bob = try fixture.join("Bob")
        let cy = try fixture.join("Cy")
        let opId = try ada.send(.move(sources: ["i1"], destination: Destination(collection: "done", before: "i7")))
        let expected = CommittedEvent(
            seq: 1, opId: opId, client: ada.clientID,
            op: .move(sources: ["i1"], destination: Destination(collection: "done", before: "i7")), adjusted: false)
        for client in [ada, bob, cy] {
            let message = try client.waitFor(type: "committed")
            #expect(message == .committed(expected), "\(client.name)")
        }
        let document = try fixture.document()
        #expect(document.seq == 1)
        #expect(document.board.ids("todo") == ["i2", "i3", "i4", "i5"])
        #expect(document.board.ids("done") == ["i6", "i1", "i7", "i8"])
        for client in [ada, bob, cy] {
            #expect(client.seq == 1)
            #expect(client.board == document.board, "\(client.name)'s replica is the server's board")
        }
        // Exactly once each.
        for client in [ada, bob, cy] {
            #expect(try client.syncCommitted().isEmpty, "\(client.name)")
        }
    }

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

    // MARK: hello errors (docs/protocol.md#refusals-of-hello)

    static let notHello: [String] = [
        #"{"type":"move","opId":"x-1","baseSeq":0,"sources":["i1"],"destination":{"collection":"done","before":null}}"#,
        #"{"type":"drag.end"}"#,
        #"{"type":"welcome"}"#,
        "this is not JSON",
    ]

    @Test(arguments: notHello)
    func aFirstMessageThatIsNotHelloIsAnErrorAndClose1008(first: String) throws {
        let fixture = try HubFixture()
        let watcher = try fixture.join("Watcher")
        let client = try WebSocketTestClient(port: fixture.port, extraHeaders: "Sec-WebSocket-Protocol: corkboard.v1\r\n")
        #expect(client.handshakeResponse.status == 101)
        try client.send(text: first)
        let answer = try decodeServerText(try client.receiveText())
        #expect(answer.typeName == "error", "got \(answer)")
        #expect(try client.receiveClose() == .policyViolation)
        // Not joined: nobody heard of it, nothing changed.
        #expect(try watcher.sync().isEmpty)
        #expect(try fixture.document() == fixture.created)
    }

    @Test func helloForAnUnknownBoardIsNotFoundAndClose1008() throws {
        let fixture = try HubFixture()
        let client = try WebSocketTestClient(port: fixture.port, extraHeaders: "Sec-WebSocket-Protocol: corkboard.v1\r\n")
        try client.send(text: #"{"type":"hello","board":"no-such-board","name":"Ada"}"#)
        let answer = try decodeServerText(try client.receiveText())
        #expect(answer.errorMessage?.code == .notFound, "got \(answer)")
        #expect(try client.receiveClose() == .policyViolation)
    }

    @Test func noHelloWithinTheDeadlineCloses1008() throws {
        let fixture = try HubFixture { $0.hub.helloTimeout = .milliseconds(300) }
        let client = try WebSocketTestClient(port: fixture.port, extraHeaders: "Sec-WebSocket-Protocol: corkboard.v1\r\n")
        #expect(client.handshakeResponse.status == 101)
        let started = Date()
        // An `error` may come first ("where it can"); the close frame must come.
        #expect(try client.receiveClose() == .policyViolation)
        let waited = Date().timeIntervalSince(started)
        #expect(waited > 0.1 && waited < 3, "closed after \(waited) s")
        // A client that says hello in time is not affected by the deadline.
        let ada = try fixture.join("Ada")
        usleep(500_000)
        try ada.commit(.delete(items: ["i1"]))
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

    @Test func operationsSentRightBehindTheHelloFollowTheWelcome() throws {
        let fixture = try HubFixture()
        func frame(_ message: ClientMessage) throws -> [UInt8] {
            WebSocketFrame(opcode: .text, payload: Array(try WireFormat.encode(message))).encoded(maskingKey: (9, 8, 7, 6))
        }
        let move = OperationRequest(opId: "early-1", baseSeq: 0, .move(sources: ["i1"], destination: Destination(collection: "done")))
        // Handshake, hello and an operation in one write.
        let client = try WebSocketTestClient(
            port: fixture.port, extraHeaders: "Sec-WebSocket-Protocol: corkboard.v1\r\n",
            firstFrames: try frame(.hello(Hello(board: "board", name: "Eager"))) + frame(.operation(move)))
        guard case .welcome(let welcome) = try decodeServerText(try client.receiveText()) else {
            Issue.record("the first message is not the welcome")
            return
        }
        #expect(welcome.seq == 0)
        #expect(welcome.board == fixture.board)
        let event = try decodeServerText(try client.receiveText()).committedEvent
        #expect(event?.opId == "early-1")
        #expect(event?.seq == 1)
        #expect(event?.client == welcome.client)
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
                    let answer = try writer.perform(.move(
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
