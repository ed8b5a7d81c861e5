import CorkboardHub
import CorkboardModel
import CorkboardServer
import CorkboardStore
import CorkboardWire
import Foundation
import TestSupport
import Testing

/// `GET` and `PUT /api/boards/{id}/archive`: an owner exports a board with its log and imports
/// one into the running server; members of a replaced board are closed to join again.
@Suite(.threadsOfTheirOwn) struct ArchiveRouteTests {
    @Test func anArchiveWithHistoryGoesOutAndComesBackAsAnotherBoardWithTheSameLog() throws {
        let fixture = try HubFixture()
        let ada = try fixture.join("Ada")
        try ada.commit(.move(sources: ["i1"], destination: Destination(collection: "done")))
        try ada.commit(.delete(items: ["i2"]))

        let exported = try fixture.api.get("/api/boards/board/archive?history=true")
        #expect(exported.status == 200, "\(exported)")
        var archive = try BoardArchive.decode(Data(exported.http.body))
        #expect(archive.format == 2 && archive.seq == 2 && archive.history?.events == ada.events)
        #expect(try fixture.api.get("/api/boards/board/archive").decode(BoardArchive.self).history == nil)

        // Under another id: a new board with the same seqs and log.
        archive.board.id = "copy"
        archive.history?.snapshot.id = "copy"
        let created = try fixture.api.send("PUT", "/api/boards/copy/archive", body: String(decoding: try archive.encoded(), as: UTF8.self))
        #expect(created.status == 201, "\(created)")
        #expect(created.object?["seq"] == .number(2) && created.object?["replaced"] == .bool(false))
        #expect(try fixture.api.events("copy") == ada.events)
        #expect(try fixture.api.document("copy").board == fixture.api.document("board").board.with(id: "copy"))
    }

    @Test func atTheBoardLimitANewBoardIsRefusedAndAReplacementIsNot() throws {
        let fixture = try HubFixture { $0.hub.maxBoards = 1 }
        var archive = try fixture.api.get("/api/boards/board/archive").decode(BoardArchive.self)
        let replaced = try fixture.api.send(
            "PUT", "/api/boards/board/archive?replace=true", body: String(decoding: try archive.encoded(), as: UTF8.self))
        #expect(replaced.status == 200, "replacing the one board is not one more: \(replaced)")
        archive.board.id = "second"
        let refused = try fixture.api.send("PUT", "/api/boards/second/archive", body: String(decoding: try archive.encoded(), as: UTF8.self))
        #expect(refused.status == 507, "\(refused)")
        #expect(refused.object?["message"] == .string("the server holds its maximum of 1 boards"))
    }

    @Test func replacingNeedsReplaceTrueAndSendsTheMembersToJoinAgain() throws {
        let fixture = try HubFixture()
        let ada = try fixture.join("Ada")
        let archive = try fixture.api.get("/api/boards/board/archive?history=true").decode(BoardArchive.self)
        try ada.commit(.move(sources: ["i1"], destination: Destination(collection: "done")))
        let body = String(decoding: try archive.encoded(), as: UTF8.self)

        let refused = try fixture.api.send("PUT", "/api/boards/board/archive", body: body)
        #expect(refused.status == 409)
        #expect(refused.object?["message"] == "a board with this id already exists; ?replace=true replaces it")

        let replaced = try fixture.api.send("PUT", "/api/boards/board/archive?replace=true", body: body)
        #expect(replaced.status == 200, "\(replaced)")
        #expect(replaced.object?["seq"] == .number(0) && replaced.object?["replaced"] == .bool(true))
        #expect(try ada.expectClose() == .serviceRestart)

        // Rejoining from the old epoch gets the new board's snapshot.
        let back = try fixture.join("Ada", resume: ResumePoint(epoch: ada.welcome.epoch, seq: ada.seq))
        #expect(!back.welcome.resumed)
        #expect(back.welcome.epoch != ada.welcome.epoch)
        #expect(back.board == archive.board)
        #expect(try fixture.api.events("board").isEmpty)
    }

    @Test func badRequestsAreRefusedWithTheErrorShape() throws {
        let fixture = try HubFixture()
        let archive = try fixture.api.get("/api/boards/board/archive").decode(BoardArchive.self)
        let body = String(decoding: try archive.encoded(), as: UTF8.self)
        let cases: [(String, String, String, Int, String)] = [
            ("GET", "/api/boards/board/archive?history=yes", "", 400, "history must be true or false, not \"yes\""),
            ("GET", "/api/boards/board/archive?limit=3", "", 400, "unknown query parameter \"limit\": GET /api/boards/board/archive takes only history"),
            ("GET", "/api/boards/board/archive?history=true&history=true", "", 400, "history is given twice"),
            ("GET", "/api/boards/nope/archive", "", 404, "no such board"),
            ("PUT", "/api/boards/other/archive", body, 400, "the archive is of board \"board\", not of \"other\""),
            ("PUT", "/api/boards/x/archive", "{", 400, ""),
            ("PUT", "/api/boards/board/archive?replace=maybe", body, 400, "replace must be true or false, not \"maybe\""),
        ]
        for (method, target, requestBody, status, message) in cases {
            let response = try fixture.api.send(method, target, body: requestBody)
            #expect(response.status == status, "\(method) \(target): \(response)")
            #expect(Set(response.object.map { Array($0.keys) } ?? []) == ["error", "message"], "\(method) \(target): \(response)")
            if !message.isEmpty { #expect(response.object?["message"] == .string(message), "\(method) \(target)") }
        }
        let invalid =
            #"{"format":2,"seq":1,"board":{"id":"x","title":"X","locked":false,"collections":[]},"history":{"snapshot":{"id":"x","title":"X","locked":false,"collections":[]},"snapshotSeq":0,"events":[]}}"#
        let refused = try fixture.api.send("PUT", "/api/boards/x/archive", body: invalid)
        #expect(refused.status == 400)
        #expect(refused.object?["message"] == "history.events end at seq 0, not at the archive's seq 1")
    }

    @Test func onlyAnOwnerOfTheBoardExportsOrImports() throws {
        let access = try TokenFile(grants: [
            TokenFile.Grant(token: "own", role: .owner, boards: ["board"]),
            TokenFile.Grant(token: "edit", role: .editor, boards: .all),
        ])
        let server = try TestServer {
            $0.createsDemoBoard = false
            $0.access = access
        }
        let api = BoardAPI(port: server.port)
        let newBoard = String(decoding: try WireFormat.encode(BoardAPI.newBoardBody(HubFixture.standardBoard)), as: UTF8.self)
        #expect(try api.send("POST", "/api/boards", headers: ["Authorization: Bearer own"], body: newBoard).status == 201)
        #expect(try api.send("GET", "/api/boards/board/archive").status == 401)
        #expect(try api.send("GET", "/api/boards/board/archive", headers: ["Authorization: Bearer edit"]).status == 403)
        let owned = try api.send("GET", "/api/boards/board/archive", headers: ["Authorization: Bearer own"])
        #expect(owned.status == 200)
        // The owner of "board" is no owner of "copy".
        var archive = try owned.decode(BoardArchive.self)
        archive.board.id = "copy"
        let body = String(decoding: try archive.encoded(), as: UTF8.self)
        #expect(try api.send("PUT", "/api/boards/copy/archive", headers: ["Authorization: Bearer own"], body: body).status == 403)
        #expect(try api.send("PUT", "/api/boards/copy/archive", headers: ["Authorization: Bearer edit"], body: body).status == 403)
    }
}

extension Board {
    fileprivate func with(id: String) -> Board {
        var board = self
        board.id = id
        return board
    }
}
