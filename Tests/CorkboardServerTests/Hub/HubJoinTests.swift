import CorkboardModel
import CorkboardWire
import Foundation
import TestSupport
import Testing
import WebSocket

/// docs/protocol.md#3-joining: hello, welcome, membership; docs/protocol.md#outcomes: a
/// commit reaches every member. Over both harnesses; the handshake's subprotocol, the URL's
/// board hint, the hello deadline and bytes in the handshake's write over sockets only.
@Suite(.threadsOfTheirOwn) struct HubJoinTests {
    // MARK: hello errors (docs/protocol.md#refusals-of-hello)

    static let notHello: [String] = [
        #"{"type":"move","opId":"x-1","baseSeq":0,"sources":["i1"],"destination":{"collection":"done","before":null}}"#,
        #"{"type":"drag.end"}"#,
        #"{"type":"welcome"}"#,
        "this is not JSON",
    ]

    @Test(arguments: HubHarness.allCases)
    func welcomeCarriesTheSnapshot(_ harness: HubHarness) throws {
        let hub = try harness.start()
        defer { withExtendedLifetime(hub) {} }
        let ada = try hub.join("Ada")
        let welcome = ada.welcome
        #expect(welcome.resumed == false)
        #expect(welcome.seq == 0)
        #expect(welcome.board == hub.board)
        #expect(welcome.peers.isEmpty)
        #expect(welcome.role == .owner, "open mode: every client is owner")
        #expect(!welcome.client.isEmpty)
        #expect(welcome.epoch == hub.created.epoch)
        #expect(welcome.epoch == (try hub.document().epoch))
        // The welcome is all there is: nothing else is waiting.
        #expect(try ada.sync().isEmpty)
    }

    @Test(arguments: HubHarness.allCases)
    func welcomeListsThePeersAndMembersHearJoinsAndLeaves(_ harness: HubHarness) throws {
        let hub = try harness.start()
        defer { withExtendedLifetime(hub) {} }
        let ada = try hub.join("Ada")
        let bob = try hub.join("Bob")
        #expect(bob.welcome.peers == [Peer(client: ada.clientID, name: "Ada", drag: nil)])
        #expect(bob.clientID != ada.clientID)
        #expect(try ada.nextMessage() == .peerJoined(client: bob.clientID, name: "Bob"))

        let cy = try hub.join("Cy")
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
        let dee = try hub.join("Dee")
        #expect(dee.welcome.peers == [Peer(client: ada.clientID, name: "Ada")])
        #expect(try ada.nextMessage() == .peerJoined(client: dee.clientID, name: "Dee"))
    }

    @Test(arguments: HubHarness.allCases)
    func aNewMemberStartsFromTheCurrentBoard(_ harness: HubHarness) throws {
        let hub = try harness.start()
        let ada = try hub.join("Ada")
        try ada.commit(.move(sources: ["i5"], destination: Destination(collection: "todo", before: "i1")))
        try ada.commit(.delete(items: ["i7"]))
        let bob = try hub.join("Bob")
        #expect(bob.welcome.seq == 2)
        #expect(bob.welcome.resumed == false)
        #expect(bob.board == ada.board)
        #expect(bob.board.ids("todo") == ["i5", "i1", "i2", "i3", "i4"])
        try bob.commit(.move(sources: ["i6"], destination: Destination(collection: "todo")))
        _ = try ada.waitFor(type: "committed")
        #expect(ada.board == bob.board)
        #expect(ada.board == (try hub.document().board))
    }

    @Test(arguments: HubHarness.allCases)
    func everyMemberGetsTheCommittedEventSenderIncluded(_ harness: HubHarness) throws {
        let hub = try harness.start()
        defer { withExtendedLifetime(hub) {} }
        let ada = try hub.join("Ada")
        let bob = try hub.join("Bob")
        let cy = try hub.join("Cy")
        let opId = try ada.send(.move(sources: ["i1"], destination: Destination(collection: "done", before: "i7")))
        let first = try ada.waitFor(type: "committed")
        let committed = try #require(first.committedEvent)
        // Stamped with the hub's clock (`at`) and Ada's hello name (`by`: no signed token).
        let expected = CommittedEvent(
            seq: 1, opId: opId, client: ada.clientID,
            op: .move(sources: ["i1"], destination: Destination(collection: "done", before: "i7")), adjusted: false,
            at: committed.at, by: "Ada")
        #expect(first == .committed(expected))
        for client in [bob, cy] {
            let message = try client.waitFor(type: "committed")
            #expect(message == .committed(expected), "\(client.name)")
        }
        let document = try hub.document()
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

    @Test(arguments: HubHarness.allCases, notHello)
    func aFirstMessageThatIsNotHelloIsAnErrorAndClose1008(_ harness: HubHarness, first: String) throws {
        let hub = try harness.start()
        let watcher = try hub.join("Watcher")
        let client = try hub.newConnection("raw")
        try client.send(text: first)
        let answer = try client.receiveMessage()
        #expect(answer.typeName == "error", "got \(answer)")
        #expect(try client.receiveClose() == .policyViolation)
        // Not joined: nobody heard of it, nothing changed.
        #expect(try watcher.sync().isEmpty)
        #expect(try hub.document() == hub.created)
    }

    @Test(arguments: HubHarness.allCases)
    func helloForAnUnknownBoardIsNotFoundAndClose1008(_ harness: HubHarness) throws {
        let hub = try harness.start()
        defer { withExtendedLifetime(hub) {} }
        let client = try hub.newConnection("raw")
        try client.send(text: #"{"type":"hello","board":"no-such-board","name":"Ada"}"#)
        let answer = try client.receiveMessage()
        #expect(answer.errorMessage?.code == .notFound, "got \(answer)")
        #expect(try client.receiveClose() == .policyViolation)
    }

    @Test(arguments: HubHarness.allCases)
    func aSecondHelloIsInvalidAndTheConnectionStays(_ harness: HubHarness) throws {
        let hub = try harness.start()
        defer { withExtendedLifetime(hub) {} }
        let ada = try hub.join("Ada")
        let bob = try hub.join("Bob")
        _ = try ada.waitFor(type: "peer.joined")
        try bob.send(.hello(Hello(board: hub.board.id, name: "Bob again")))
        let answer = try bob.nextMessage()
        #expect(answer.errorMessage?.code == .invalid, "got \(answer)")
        // Still a member, same client: it commits and Ada sees it from the same client id.
        let event = try bob.commit(.move(sources: ["i2"], destination: Destination(collection: "done")))
        #expect(event.client == bob.clientID)
        #expect(try ada.nextMessage() == .committed(event), "no second peer.joined before the event")
        #expect(try ada.sync().isEmpty)
    }

    @Test(arguments: HubHarness.allCases)
    func clientsJoiningWhileOthersCommitGetASnapshotThatTheEventsFollow(_ harness: HubHarness) throws {
        let hub = try harness.start()
        let writer = try hub.join("Writer")
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
            joiners.append(try hub.join("Joiner \(index)"))
        }
        stop.withLock { $0 = true }
        #expect(writing.wait(timeout: .now() + 30) == .success)
        #expect(failures.withLock { $0 }.isEmpty)
        #expect(Set(joiners.map(\.welcome.seq)).count > 1, "the joins were spread over the writes")
        try hub.expectAgreement([writer] + joiners)
    }

    // MARK: Over sockets only: the WebSocket handshake and the server's timers

    /// Socket only: the subprotocol is the WebSocket handshake's.
    @Test func theSubprotocolIsAgreedAndClientsMayOmitIt() throws {
        let fixture = try HubFixture()
        let ada = try fixture.join("Ada")
        #expect(ada.ws.handshakeResponse.header("Sec-WebSocket-Protocol") == "corkboard.v1")
        let bob = try fixture.join("Bob", subprotocol: nil)
        #expect(bob.ws.handshakeResponse.header("Sec-WebSocket-Protocol") == nil)
        #expect(bob.welcome.board == fixture.board)
        try bob.commit(.move(sources: ["i1"], destination: Destination(collection: "done")))
        #expect(bob.board == (try fixture.document().board))
    }

    /// `/ws?board=ID` is a balancer's routing hint (docs/protocol.md#2-transport): the same
    /// endpoint, and the hello decides the board, even when the query names another one.
    /// Socket only: the URL is the handshake's.
    @Test func theBoardInTheURLIsOnlyAHint() throws {
        let fixture = try HubFixture()
        let named = try BoardTestClient(port: fixture.port, board: fixture.board.id, name: "Ada", namingBoard: true)
        #expect(named.welcome.board == fixture.board)
        let misnamed = try BoardTestClient(
            transport: WebSocketClientTransport(port: fixture.port, path: "/ws?board=another-board"), board: fixture.board.id, name: "Bob")
        #expect(misnamed.welcome.board == fixture.board && misnamed.welcome.count == 2)
    }

    /// Socket only: the handshake, the hello and an operation arrive in one TCP write.
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
            throw HubTestFailure("the first message is not the welcome")
        }
        #expect(welcome.seq == 0)
        #expect(welcome.board == fixture.board)
        let event = try decodeServerText(try client.receiveText()).committedEvent
        #expect(event?.opId == "early-1")
        #expect(event?.seq == 1)
        #expect(event?.client == welcome.client)
    }
}
