import CorkboardClient
import CorkboardModel
import CorkboardWire
import Foundation
import TestSupport
import Testing

/// Joining: the replica is the server's board; refusals are typed errors.
@Suite(.threadsOfTheirOwn) struct JoinTests {
    @Test func replicaEqualsTheServersBoard() async throws {
        let server = try CorkboardTestServer()
        let client = server.client(board: "demo", name: "joiner")
        let welcome = try await client.connect()
        let document = try server.document("demo")
        #expect(welcome.resumed == false)
        #expect(welcome.role == .owner)
        #expect(client.replica == Replica(board: document.board, seq: document.seq))
        #expect(client.epoch == document.epoch)
        #expect(client.state == .joined(client: welcome.client, role: .owner, resumed: false))
        await client.close()
        #expect(client.state == .closed(nil))
    }

    @Test func unknownBoardIsRefused() async throws {
        let server = try CorkboardTestServer()
        let client = server.client(board: "nope", name: "lost")
        await #expect(throws: BoardClientError.refused(code: "not-found", message: "there is no board \"nope\"")) {
            try await client.connect()
        }
        #expect(client.state == .closed(.refused(code: "not-found", message: "there is no board \"nope\"")))
    }

    @Test func nobodyListeningCannotConnect() async throws {
        // A port that was just free: bind, note it, close.
        let server = try CorkboardTestServer()
        let port = server.port
        server.stop()
        let client = BoardClient(BoardClientConfiguration(port: port, board: "demo", name: "early"))
        do {
            try await client.connect()
            Issue.record("connected to a stopped server")
        } catch let error as BoardClientError {
            guard case .cannotConnect = error else {
                Issue.record("expected cannotConnect, got \(error)")
                return
            }
        }
    }

    @Test func tokensGiveRolesAndABadTokenIsRefused() async throws {
        let tokens = try TemporaryDirectory("corkboard-client-tokens")
        let file = try tokens.write(
            "tokens.json",
            """
            {"tokens":[{"token":"boss","role":"owner","boards":"*"},{"token":"pen","role":"editor","boards":"*"},{"token":"eyes","role":"viewer","boards":"*"}]}
            """)
        let server = try CorkboardTestServer(extra: ["--tokens", file])
        let viewer = server.client(board: "demo", name: "viewer", token: "eyes")
        #expect(try await viewer.connect().role == .viewer)
        #expect(await viewer.move(["card-bot"], to: "done").rejection == .forbidden)
        let editor = server.client(board: "demo", name: "editor", token: "pen")
        #expect(try await editor.connect().role == .editor)
        #expect(await editor.lock().rejection == .forbidden)
        #expect(await editor.move(["card-bot"], to: "done").isCommitted)
        let stranger = server.client(board: "demo", name: "stranger", token: "wrong")
        do {
            try await stranger.connect()
            Issue.record("joined with a bad token")
        } catch let error as BoardClientError {
            guard case .refused(code: "unauthorized", _) = error else {
                Issue.record("expected unauthorized, got \(error)")
                return
            }
        }
        await viewer.close()
        await editor.close()
    }

    @Test func operationsBeforeConnectWaitForTheWelcome() async throws {
        let server = try CorkboardTestServer()
        let client = server.client(board: "demo", name: "eager")
        async let early = client.move(["card-spec"], to: "done")
        try await Task.sleep(for: .milliseconds(50))
        try await client.connect()
        let result = await early
        #expect(result.event?.seq == 1)
        #expect(result.event?.op == .move(sources: ["card-spec"], destination: Destination(collection: "done")))
        await client.close()
    }
}
