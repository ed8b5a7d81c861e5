import CorkboardModel
import CorkboardServer
import Foundation
import HubTestSupport
import TestSupport
import Testing
import WebSocket

/// `/api/admin` (docs/protocol.md#admin) on a server with a token file: only an owner of every
/// board reads the overview and drains; `GET /api/admin/access` answers anyone 200 with
/// whether they may; the overview lists the boards open here with their members; a drain
/// turns `/readyz` to 503 and sends the members away with 1001, and taking it back makes the
/// node ready again.
@Suite(.threadsOfTheirOwn) struct AdminRoutesTests {
    static let owner = "owner-token"
    static let editor = "editor-token"
    static let boardOwner = "demo-owner-token"

    static func server() throws -> TestServer {
        try TestServer { configuration in
            configuration.createsDemoBoard = true
            configuration.access = ServerAccess(
                file: try! TokenFile(grants: [
                    TokenFile.Grant(token: owner, role: .owner, boards: .all, name: "Olive"),
                    TokenFile.Grant(token: editor, role: .editor, boards: ["demo"], name: "Ada"),
                    TokenFile.Grant(token: boardOwner, role: .owner, boards: ["demo"], name: "Bo"),
                ]), signed: nil)
        }
    }

    static func call(_ port: UInt16, _ method: String, _ target: String, token: String?) throws -> APIResponse {
        try BoardAPI(port: port).send(method, target, headers: token.map { ["Authorization: Bearer \($0)"] } ?? [])
    }

    @Test func onlyAnOwnerOfEveryBoardIsLetIn() throws {
        let server = try Self.server()
        for (method, target) in [("GET", "/api/admin/overview"), ("POST", "/api/admin/drain"), ("DELETE", "/api/admin/drain")] {
            #expect(try Self.call(server.port, method, target, token: nil).status == 401, "\(method) \(target)")
            #expect(try Self.call(server.port, method, target, token: "wrong").status == 401, "\(method) \(target)")
            #expect(try Self.call(server.port, method, target, token: Self.editor).status == 403, "\(method) \(target)")
            let refused = try Self.call(server.port, method, target, token: Self.boardOwner)
            #expect(refused.status == 403, "\(method) \(target)")
            #expect(refused.object?["error"] == "forbidden")
            #expect(refused.object?["message"] == .string("only an owner of every board (\"boards\": \"*\") may use the admin page"))
        }
        #expect(try Self.call(server.port, "GET", "/api/admin/overview", token: Self.owner).status == 200)
        #expect(try Self.call(server.port, "GET", "/readyz", token: nil).status == 200, "nothing was drained")
    }

    @Test func theAccessCheckAnswersEveryone200() throws {
        let server = try Self.server()
        let answers = try [nil, "wrong", Self.editor, Self.boardOwner, Self.owner].map { token in
            try Self.call(server.port, "GET", "/api/admin/access", token: token)
        }
        #expect(answers.allSatisfy { $0.status == 200 }, "\(answers)")
        #expect(answers.map { $0.object?["administrator"] } == [.bool(false), .bool(false), .bool(false), .bool(false), .bool(true)])
        #expect(answers[0].object?["message"] == "a token is needed: Authorization: Bearer <token>")
        #expect(answers[4].object?["message"] == nil)
        #expect(try Self.call(server.port, "GET", "/api/admin/access?x=1", token: Self.owner).status == 400)
    }

    @Test func theOverviewListsTheBoardsOpenHereWithTheirMembers() throws {
        let server = try Self.server()
        let ada = try BoardTestClient(port: server.port, board: "demo", name: "Ada", token: Self.editor)
        let answer = try Self.call(server.port, "GET", "/api/admin/overview", token: Self.owner)
        let overview = try #require(answer.object, "\(answer)")
        let node = try #require(overview["node"]?.objectValue)
        #expect(node["id"] == "local")
        #expect(node["version"] == .string(CorkboardVersion.current))
        #expect(node["draining"] == .bool(false))
        #expect(node["store"] == "sqlite")
        #expect(overview["nodes"] == .array([]))
        #expect(overview["next"] == nil)
        let boards = try #require(overview["boards"]?.elements)
        #expect(boards.count == 1)
        let demo = try #require(boards.first?.objectValue)
        #expect(demo["id"] == "demo")
        #expect(demo["memberCount"] == .number(1))
        let member = try #require(demo["members"]?.elements?.first?.objectValue)
        #expect(member["client"] == .string(ada.clientID))
        #expect(member["name"] == "Ada")
        #expect(member["role"] == "editor")
        #expect(member["node"] == "local")
        #expect(member["observes"] == .bool(false))
    }

    @Test func theOverviewPagesItsBoardsAndRefusesOtherQueries() throws {
        let server = try Self.server()
        for id in ["b1", "b2", "b3"] {
            let board = TestBoards.grid(id: id, collections: 1, itemsEach: 1)
            let created = try BoardAPI(port: server.port).send(
                "POST", "/api/boards", headers: ["Authorization: Bearer \(Self.owner)", "Content-Type: application/json"],
                body: String(decoding: try JSONEncoder().encode(BoardAPI.newBoardBody(board)), as: UTF8.self))
            #expect(created.status == 201, "\(created)")
        }
        // A board is open here once someone joined it (its room is loaded).
        let members = try ["demo", "b1", "b2", "b3"].map { try BoardTestClient(port: server.port, board: $0, name: "O", token: Self.owner) }
        var seen: [String] = []
        var target = "/api/admin/overview?limit=3"
        for _ in 0..<3 {
            let page = try #require(try Self.call(server.port, "GET", target, token: Self.owner).object)
            seen += (page["boards"]?.elements ?? []).compactMap { $0.objectValue?["id"]?.stringValue }
            guard case .string(let next) = page["next"] else { break }
            target = "/api/admin/overview?limit=3&cursor=\(next)"
        }
        #expect(seen == ["b1", "b2", "b3", "demo"])
        #expect(members.count == 4)
        for query in ["limit=0", "limit=1001", "limit=x", "limit=1&limit=2", "cursor=", "cursor=%%%", "page=2"] {
            #expect(try Self.call(server.port, "GET", "/api/admin/overview?\(query)", token: Self.owner).status == 400, "\(query)")
        }
    }

    @Test func aDrainTurnsReadinessAwayAndSendsMembersElsewhereUntilTakenBack() throws {
        let server = try Self.server()
        let ada = try BoardTestClient(port: server.port, board: "demo", name: "Ada", token: Self.editor)
        let drained = try Self.call(server.port, "POST", "/api/admin/drain", token: Self.owner)
        #expect(drained.status == 200)
        #expect(drained.object?["draining"] == .bool(true))
        #expect(try ada.expectClose() == .goingAway)
        let ready = try Self.call(server.port, "GET", "/readyz", token: nil)
        #expect(ready.status == 503)
        #expect(ready.object?["reason"] == "draining: an owner drained this node (POST /api/admin/drain)")
        // The node still takes members: with one node, there is nowhere else to go.
        let bob = try BoardTestClient(port: server.port, board: "demo", name: "Bob", token: Self.editor)
        #expect(try Self.call(server.port, "POST", "/api/admin/drain", token: Self.owner).status == 200, "twice is once")

        let undrained = try Self.call(server.port, "DELETE", "/api/admin/drain", token: Self.owner)
        #expect(undrained.status == 200)
        #expect(undrained.object?["draining"] == .bool(false))
        #expect(try Self.call(server.port, "GET", "/readyz", token: nil).status == 200)
        #expect(try Self.call(server.port, "POST", "/api/admin/drain?now=1", token: Self.owner).status == 400)
        #expect(try Self.call(server.port, "GET", "/readyz", token: nil).status == 200)
        #expect(bob.clientID != ada.clientID)
    }
}
