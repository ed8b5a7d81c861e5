import CorkboardHub
import CorkboardModel
import CorkboardServer
import CorkboardWire
import Foundation
import TestSupport
import Testing

/// Roles from a token file (docs/protocol.md#3-joining, docs/protocol.md#8-http-api):
/// viewers watch, editors change, owners also lock; a token limited to some boards gives
/// nothing on the others.
@Suite(.threadsOfTheirOwn) struct HubRoleTests {
    static let grants = [
        TokenFile.Grant(token: "own", role: .owner, boards: .all),
        TokenFile.Grant(token: "edit", role: .editor, boards: ["board"]),
        TokenFile.Grant(token: "view", role: .viewer, boards: ["board"]),
    ]

    static func server() throws -> TestServer {
        let access = try TokenFile(grants: grants)
        let server = try TestServer {
            $0.createsDemoBoard = false
            $0.access = access
        }
        for id in ["board", "other"] {
            var board = HubFixture.standardBoard
            board.id = id
            let body = String(decoding: try WireFormat.encode(BoardAPI.newBoardBody(board)), as: UTF8.self)
            let created = try server.request(
                "POST /api/boards HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer own\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
            #expect(created.status == 201)
        }
        return server
    }

    @Test func aViewerWatchesButMayNeitherChangeNorDrag() throws {
        let server = try Self.server()
        let editor = try BoardTestClient(port: server.port, board: "board", name: "Ed", token: "edit")
        let viewer = try BoardTestClient(port: server.port, board: "board", name: "Vi", token: "view")
        #expect(viewer.welcome.role == .viewer)
        #expect(editor.welcome.role == .editor)
        #expect(try viewer.reject(.move(sources: ["i1"], destination: Destination(collection: "done"))).code == .forbidden)
        try viewer.send(.dragStart(items: ["i1"]))
        let drag = try #require(try viewer.waitFor(type: "rejected").rejection)
        #expect(drag.ref == "drag.start" && drag.code == .forbidden)
        // The viewer still receives everything.
        let event = try editor.commit(.move(sources: ["i1"], destination: Destination(collection: "done")))
        try viewer.waitUntilSeq(event.seq)
        // Only an owner locks.
        #expect(try editor.reject(.lock(locked: true)).code == .forbidden)
        let owner = try BoardTestClient(port: server.port, board: "board", name: "Ow", token: "own")
        #expect(owner.welcome.role == .owner)
        try owner.commit(.lock(locked: true))
    }

    @Test func aTokenGivesNothingOnABoardItDoesNotList() throws {
        let server = try Self.server()
        // A valid token without this board: forbidden; an unknown one or none: unauthorized.
        for (token, code) in [("edit", ErrorCode.forbidden), ("nope", .unauthorized), (nil, .unauthorized)] as [(String?, ErrorCode)] {
            let socket = try WebSocketTestClient(port: server.port)
            let hello = Hello(board: "other", name: "X", token: token)
            try socket.send(text: String(decoding: try WireFormat.encode(ClientMessage.hello(hello)), as: UTF8.self))
            let answer = try WireFormat.decodeServerMessage(Data(try #require(try socket.receiveText()).utf8))
            guard case .error(let error) = answer else {
                Issue.record("expected error, got \(answer)")
                continue
            }
            #expect(error.code == code)
            #expect(try socket.receiveClose() == .policyViolation)
        }
        // Over HTTP: 403 for a valid token without that board, 401 without a valid token; the list shows only what the token may see.
        #expect(try server.get("/api/boards/other", headers: "Authorization: Bearer edit\r\n").status == 403)
        #expect(try server.get("/api/boards/board").status == 401)
        #expect(try server.get("/api/boards/board", headers: "Authorization: Bearer nope\r\n").status == 401)
        #expect(try server.get("/api/boards/board", headers: "Authorization: Bearer view\r\n").status == 200)
        let op = #"{"type":"delete","opId":"v-1","baseSeq":0,"items":["i1"]}"#
        let viewerOp = try server.request(
            "POST /api/boards/board/ops HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer view\r\nContent-Length: \(op.utf8.count)\r\n\r\n\(op)")
        #expect(viewerOp.status == 403)
        let list = try server.get("/api/boards", headers: "Authorization: Bearer edit\r\n")
        #expect(try JSONDecoder().decode(BoardList.self, from: Data(list.body)).boards.map(\.id) == ["board"])
    }
}
