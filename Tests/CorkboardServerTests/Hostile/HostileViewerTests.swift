import CorkboardHub
import CorkboardModel
import CorkboardServer
import CorkboardWire
import Foundation
import TestSupport
import Testing

/// A viewer (and a token for another board) trying every operation, every drag message and
/// every HTTP write: each is refused, nothing changes, and the editors never hear of it.
@Suite(.threadsOfTheirOwn) struct HostileViewerTests {
    static let tokens = [
        TokenFile.Grant(token: "owner-token", role: .owner, boards: .all),
        TokenFile.Grant(token: "editor-token", role: .editor, boards: ["board"]),
        TokenFile.Grant(token: "viewer-token", role: .viewer, boards: ["board"]),
        TokenFile.Grant(token: "other-board-editor", role: .editor, boards: ["other"]),
    ]

    /// Every operation a client can send, in both move forms and both update forms.
    static let everyOperation: [RequestedOperation] = [
        .move(sources: ["i1"], destination: Destination(collection: "done")),
        .moveByOffsets(collection: "todo", fromOffsets: [0, 1], toOffset: 0, toCollection: "done"),
        .insert(items: [Item(id: "sneaky", label: "Sneaky")], destination: Destination(collection: "todo")),
        .delete(items: ["i2"]),
        .updateItem(item: "i3", label: "defaced", data: .unchanged),
        .updateItem(item: "i3", label: nil, data: .remove),
        .renameCollection(collection: "todo", title: "pwned"),
        .addCollection(collection: "mine", title: "Mine", before: nil),
        .removeCollection(collection: "done"),
        .lock(locked: true),
        .lock(locked: false),
    ]

    @Test func aViewerTryingEverythingChangesNothing() async throws {
        let access = try TokenFile(grants: Self.tokens)
        try await offPool {
            let server = try TestServer {
                $0.createsDemoBoard = false
                $0.access = access
            }
            let port = server.port
            try Unharmed.createBoard(port: port, token: "owner-token")
            let before = try Unharmed.seed(port: port, token: "editor-token")
            let document = try Unharmed.document(port: port, board: "board", token: "viewer-token")
            let editor = try BoardTestClient(port: port, board: "board", name: "Editor", token: "editor-token")
            let viewer = try BoardTestClient(port: port, board: "board", name: "Viewer", token: "viewer-token")
            _ = try editor.waitFor(type: "peer.joined")

            // Every operation over the WebSocket, with a seq it could have and with one it could not.
            for operation in Self.everyOperation {
                for baseSeq in [viewer.seq, 0] {
                    let answer = try viewer.perform(operation, baseSeq: operation.needsBaseSeq ? baseSeq : nil)
                    #expect(answer.rejection?.code == .forbidden, "\(operation): \(answer)")
                }
            }
            // Presence: no drag may start; a placeholder without a drag is invalid; a stray end is ignored.
            try viewer.send(.dragStart(items: ["i1"]))
            #expect(try viewer.waitFor(type: "rejected").rejection.map { $0.ref == "drag.start" && $0.code == .forbidden } == true)
            try viewer.send(.dragOver(collection: "todo", index: 0))
            #expect(try viewer.waitFor(type: "error").errorMessage?.code == .invalid)
            try viewer.send(.dragEnd)
            // Every operation over HTTP, and creating a board.
            for operation in Self.everyOperation {
                let request = OperationRequest(opId: viewer.nextOpId(), baseSeq: operation.needsBaseSeq ? 0 : nil, operation)
                let body = String(decoding: try WireFormat.encode(ClientMessage.operation(request)), as: UTF8.self)
                let response = try Unharmed.post(port, "/api/boards/board/ops", body: body, token: "viewer-token")
                #expect(response.status == 403, "\(operation) over HTTP: \(response.status) \(response.text)")
            }
            var board = HubFixture.standardBoard
            board.id = "viewers-own"
            let newBoard = String(decoding: try WireFormat.encode(BoardAPI.newBoardBody(board)), as: UTF8.self)
            #expect(try Unharmed.post(port, "/api/boards", body: newBoard, token: "viewer-token").status == 403)
            // Tokens of other boards (403), made-up ones and none at all (401) get nowhere either
            // (a header's trailing space is not part of its value: that is the viewer's token, 403).
            for (token, refused) in [
                ("other-board-editor", 403), ("viewer-token ", 403), ("VIEWER-TOKEN", 401), ("viewer-toke", 401), ("", 401), (nil, 401),
            ] as [(String?, Int)] {
                let request = OperationRequest(opId: viewer.nextOpId(), baseSeq: 0, .delete(items: ["i1"]))
                let body = String(decoding: try WireFormat.encode(ClientMessage.operation(request)), as: UTF8.self)
                let status = try Unharmed.post(port, "/api/boards/board/ops", body: body, token: token).status
                #expect(status == refused || status == 400, "token \(token ?? "none"): \(status)")
            }

            // Nothing changed, and the editor heard nothing of it: no commit, no drag.
            #expect(try Unharmed.document(port: port, board: "board", token: "viewer-token") == document)
            let heard = try editor.sync()
            #expect(heard.isEmpty, "the editor heard \(heard)")
            #expect(try viewer.sync().allSatisfy { $0.typeName != "committed" })
            try Unharmed.expect(port: port, token: "editor-token", eventsBefore: before)
        }
    }
}
