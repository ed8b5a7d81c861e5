import CorkboardModel
import CorkboardWire
import Foundation
import TestSupport
import Testing
import WebSocket

/// docs/protocol.md#3-joining and docs/protocol.md#outcomes end to end, over real sockets: the subprotocol, hello and its deadline,
/// welcome, a commit reaching every member (the rest of joining is tested in-process:
/// CorkboardHubTests' HubJoinTests).
@Suite(.threadsOfTheirOwn) struct HubJoinTests {
    // MARK: hello errors (docs/protocol.md#refusals-of-hello)

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

    /// `/ws?board=ID` is a balancer's routing hint (docs/protocol.md#2-transport): the same
    /// endpoint, and the hello decides the board, even when the query names another one.
    @Test func theBoardInTheURLIsOnlyAHint() throws {
        let fixture = try HubFixture()
        let named = try BoardTestClient(port: fixture.port, board: fixture.board.id, name: "Ada", namingBoard: true)
        #expect(named.welcome.board == fixture.board)
        let ws = try WebSocketTestClient(
            port: fixture.port, path: "/ws?board=another-board", extraHeaders: "Sec-WebSocket-Protocol: corkboard.v1\r\n")
        let misnamed = try BoardTestClient(transport: WebSocketClientTransport(ws: ws), board: fixture.board.id, name: "Bob")
        #expect(misnamed.welcome.board == fixture.board && misnamed.welcome.count == 2)
    }

    @Test func everyMemberGetsTheCommittedEventSenderIncluded() throws {
        let fixture = try HubFixture()
        let ada = try fixture.join("Ada")
        let bob = try fixture.join("Bob")
        let cy = try fixture.join("Cy")
        let opId = try ada.send(.move(sources: ["i1"], destination: Destination(collection: "done", before: "i7")))
        let first = try ada.waitFor(type: "committed")
        guard case .committed(let committed) = first else { throw HubTestFailure("expected committed, got \(first)") }
        // Stamped with the hub's clock (`at`) and Ada's hello name (`by`: no signed token).
        let expected = CommittedEvent(
            seq: 1, opId: opId, client: ada.clientID,
            op: .move(sources: ["i1"], destination: Destination(collection: "done", before: "i7")), adjusted: false,
            at: try #require(committed.at), by: "Ada")
        #expect(first == .committed(expected))
        for client in [bob, cy] {
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
}
