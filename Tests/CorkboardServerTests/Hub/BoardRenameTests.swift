import CorkboardHub
import CorkboardModel
import CorkboardServer
import CorkboardWire
import Foundation
import TestSupport
import Testing

/// Renaming a board (docs/protocol.md#8-http-api, `PATCH /api/boards/{id}`, and the operation
/// `{"type":"update","title":…}` of docs/protocol.md#4-operations): an owner's act, sequenced
/// and made durable like every operation, so that every member's replica follows it; the body
/// is strict, and every refusal has the API's error shape.
@Suite(.threadsOfTheirOwn) struct BoardRenameTests {
    @Test func aPatchCommitsTheTitleAndEveryMemberHearsIt() throws {
        let fixture = try HubFixture()
        let ada = try fixture.join("Ada")
        let bob = try fixture.join("Bob")

        let renamed = try fixture.api.send("PATCH", "/api/boards/board", body: #"{"title":"Sprint 13"}"#)
        #expect(renamed.status == 200, "\(renamed)")
        #expect(try renamed.decode(BoardSummary.self) == BoardSummary(id: "board", title: "Sprint 13", seq: 1))
        for member in [ada, bob] {
            try member.waitUntilSeq(1)
            #expect(member.events.last?.op == .renameBoard(title: "Sprint 13"))
            #expect(member.board.title == "Sprint 13")
        }
        #expect(try fixture.document().board.title == "Sprint 13")
        #expect(try fixture.api.get("/api/boards").decode(BoardList.self).boards == [BoardSummary(id: "board", title: "Sprint 13", seq: 1)])
        // The log carries it as members received it.
        let page = try fixture.api.get("/api/boards/board/ops?since=0").decode(EventPage.self)
        #expect(page.events.map(\.op) == [.renameBoard(title: "Sprint 13")])
        // A member who joins later is welcomed with the new title.
        #expect(try fixture.join("Carl").board.title == "Sprint 13")
    }

    @Test func anOwnerMayRenameOverTheWebSocketTooAndOthersHearIt() throws {
        let fixture = try HubFixture()
        let ada = try fixture.join("Ada")
        let bob = try fixture.join("Bob")
        let event = try ada.commit(.renameBoard(title: "From Ada"))
        #expect(event.op == .renameBoard(title: "From Ada"))
        try bob.waitUntilSeq(event.seq)
        #expect(bob.board.title == "From Ada")
        #expect(bob.rawLog.contains { $0.contains(#""op":{"title":"From Ada","type":"update"}"#) }, "the wire shape")
    }

    @Test func theBodyIsStrictAndNamesWhatIsWrong() throws {
        let fixture = try HubFixture()
        let cases: [(body: String, message: String)] = [
            (#"{"title":"T","colour":"red"}"#, #"unknown field "colour""#),
            (#"{}"#, #"missing field "title""#),
            (#"{"title":7}"#, #"field "title" must be a string"#),
            (#"["title"]"#, "the body must be a JSON object"),
            ("title=T", "the body must be a JSON object"),
        ]
        for (body, message) in cases {
            let refused = try fixture.api.send("PATCH", "/api/boards/board", body: body)
            #expect(refused.status == 400, "\(body): \(refused)")
            #expect(refused.object == ["error": "bad request", "message": .string(message)], "\(body): \(refused)")
        }
        let tooLong = try fixture.api.send(
            "PATCH", "/api/boards/board", body: #"{"title":""# + String(repeating: "x", count: Limits.maximumTextBytes + 1) + #""}"#)
        #expect(tooLong.status == 400 && tooLong.object?["error"] == "bad request", "\(tooLong)")
        #expect(try fixture.document().board.title == fixture.board.title && fixture.document().seq == 0, "nothing changed")
    }

    @Test func unknownBoardsAre404AndLockedBoards423() throws {
        let fixture = try HubFixture()
        let missing = try fixture.api.send("PATCH", "/api/boards/nope", body: #"{"title":"T"}"#)
        #expect(missing.status == 404 && missing.object?["error"] == "not found", "\(missing)")
        _ = try fixture.join("Ada").commit(.lock(locked: true))
        let locked = try fixture.api.send("PATCH", "/api/boards/board", body: #"{"title":"T"}"#)
        #expect(locked.status == 423, "\(locked)")
        #expect(locked.object == ["error": "locked", "message": "the board is locked"], "\(locked)")
    }

    @Test func renamesPastTheOperationRateAre429WithRetryAfter() throws {
        let fixture = try HubFixture { $0.hub.operationRate = RateLimit(perSecond: 0.001, burst: 2) }
        var statuses: [Int] = []
        for attempt in 0..<3 {
            let response = try fixture.api.send("PATCH", "/api/boards/board", body: #"{"title":"T\#(attempt)"}"#)
            statuses.append(response.status)
            if response.status == 429 {
                #expect(response.http.header("Retry-After") == "1")
                #expect(response.object?["error"] == "too many requests" && response.text.contains("retry after Retry-After"), "\(response)")
            }
        }
        #expect(statuses == [200, 200, 429])
        #expect(try fixture.document().board.title == "T1")
    }

    @Test func onlyAnOwnerRenames() throws {
        let server = try HubRoleTests.server()
        let api = BoardAPI(port: server.port)
        for token in ["edit", "view"] {
            let refused = try api.send("PATCH", "/api/boards/board", headers: ["Authorization: Bearer \(token)"], body: #"{"title":"T"}"#)
            #expect(refused.status == 403, "\(token): \(refused)")
            #expect(refused.object == ["error": "forbidden", "message": "only an owner may rename a board"], "\(token): \(refused)")
        }
        #expect(try api.send("PATCH", "/api/boards/board", body: #"{"title":"T"}"#).status == 401)
        #expect(try api.send("PATCH", "/api/boards/other", headers: ["Authorization: Bearer edit"], body: #"{"title":"T"}"#).status == 403)
        let renamed = try api.send("PATCH", "/api/boards/board", headers: ["Authorization: Bearer own"], body: #"{"title":"Owned"}"#)
        #expect(renamed.status == 200, "\(renamed)")

        // Over the WebSocket the same rule: an editor's rename is rejected forbidden.
        let editor = try BoardTestClient(port: server.port, board: "board", name: "Ed", token: "edit")
        let rejected = try editor.reject(.renameBoard(title: "Mine"))
        #expect(rejected.code == .forbidden && rejected.message == "only an owner may rename a board")
    }
}
