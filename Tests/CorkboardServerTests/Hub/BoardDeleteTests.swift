import CorkboardModel
import CorkboardServer
import CorkboardWire
import Foundation
import TestSupport
import Testing

/// `DELETE /api/boards/{id}` (docs/protocol.md#8-http-api): an owner deletes a board; its
/// members are told and closed, the board is gone for every later request and `hello`, its
/// id may be used again, and the other boards carry on.
@Suite(.threadsOfTheirOwn) struct BoardDeleteTests {
    @Test func deletingClosesTheMembersAndTheBoardIsGoneForEveryone() throws {
        let fixture = try HubFixture()
        try fixture.api.createBoard(Board(id: "other", title: "Other", collections: [BoardCollection(id: "c", title: "C")]))
        let ada = try fixture.join("Ada")
        let bob = try fixture.join("Bob")
        let carl = try BoardTestClient(port: fixture.port, board: "other", name: "Carl")
        try ada.commit(.move(sources: ["i1"], destination: Destination(collection: "done")))

        let deleted = try fixture.api.delete("/api/boards/board")
        #expect(deleted.status == 204, "\(deleted)")
        #expect(deleted.http.body.isEmpty)
        for member in [ada, bob] {
            #expect(try member.expectClose() == .policyViolation)
            #expect(member.log.last?.errorMessage == ErrorMessage(code: .gone, message: "the board was deleted"))
        }

        #expect(try fixture.api.get("/api/boards/board").status == 404)
        #expect(try fixture.api.get("/api/boards/board/ops").status == 404)
        #expect(try fixture.api.perform("board", OperationRequest(opId: "late", .lock(locked: true))).status == 404)
        #expect(try fixture.api.delete("/api/boards/board").status == 404)
        #expect(try fixture.api.get("/api/boards").decode(BoardList.self).boards.map(\.id) == ["other"])
        do {
            _ = try fixture.join("Late")
            Issue.record("a hello for a deleted board must be refused")
        } catch {
            #expect("\(error)".contains("not-found"), "\(error)")
        }

        // The id may be created anew, from seq 0, with another epoch.
        let again = try fixture.api.createBoard(fixture.board)
        #expect(again.seq == 0 && again.board == fixture.board && again.epoch != fixture.created.epoch)
        let dana = try fixture.join("Dana")
        #expect(dana.welcome.board == fixture.board)

        // The other board's member noticed nothing.
        try carl.commit(.addCollection(collection: "d", title: "D", before: nil))
        #expect(carl.log.allSatisfy { $0.typeName != "error" })
    }

    @Test func unknownAndInvalidIdsAre404() throws {
        let fixture = try HubFixture()
        for target in ["/api/boards/nope", "/api/boards/" + String(repeating: "x", count: 200)] {
            let response = try fixture.api.delete(target)
            #expect(response.status == 404, "\(target): \(response)")
            #expect(response.object?["error"] == "not found")
        }
        #expect(try fixture.api.document("board").board == fixture.board)
    }

    @Test func onlyAnOwnerDeletes() throws {
        let server = try HubRoleTests.server()
        let api = BoardAPI(port: server.port)
        for token in ["edit", "view"] {
            let refused = try api.delete("/api/boards/board", token: token)
            #expect(refused.status == 403, "\(token): \(refused)")
            #expect(refused.object?["error"] == "forbidden")
        }
        // A token not valid for the board is 403 too, whether the board exists or not: it
        // cannot learn which boards there are.
        #expect(try api.delete("/api/boards/other", token: "edit").status == 403)
        #expect(try api.delete("/api/boards/nope", token: "edit").status == 403)
        #expect(try api.delete("/api/boards/nope", token: "own").status == 404)
        #expect(try api.delete("/api/boards/board", token: "own").status == 204)
        #expect(try api.delete("/api/boards/board", token: "own").status == 404)
    }
}
