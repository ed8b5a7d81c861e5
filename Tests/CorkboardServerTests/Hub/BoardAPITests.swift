import CorkboardModel
import CorkboardWire
import Foundation
import TestSupport
import Testing

/// The `/api` endpoints and their statuses (docs/protocol.md#8-http-api; 403 and 429 belong to
/// later parts).
@Suite(.threadsOfTheirOwn) struct BoardAPITests {
    static func move(_ sources: [ItemID], to collection: CollectionID, before: ItemID? = nil, opId: String, baseSeq: Int = 0) -> OperationRequest {
        OperationRequest(opId: opId, baseSeq: baseSeq, .move(sources: sources, destination: Destination(collection: collection, before: before)))
    }

    @Test func listsTheBoardsSortedByID() throws {
        let fixture = try HubFixture()
        try fixture.api.createBoard(Board(id: "zeta", title: "Last", collections: []))
        try fixture.api.createBoard(Board(id: "alpha", title: "First", collections: [BoardCollection(id: "c", title: "C")]))
        let response = try fixture.api.get("/api/boards")
        #expect(response.status == 200)
        #expect(response.http.header("Content-Type")?.hasPrefix("application/json") == true)
        #expect(
            try response.decode(BoardList.self)
                == BoardList(boards: [
                    .init(id: "alpha", title: "First", seq: 0), .init(id: "board", title: "Test board", seq: 0), .init(id: "zeta", title: "Last", seq: 0),
                ]))
        _ = try fixture.api.perform("zeta", OperationRequest(opId: "z-1", .addCollection(collection: "x", title: "X", before: nil)))
        #expect(try fixture.api.get("/api/boards").decode(BoardList.self).boards.last == .init(id: "zeta", title: "Last", seq: 1))
    }

    @Test func theDemoBoardIsCreatedWhenTheStoreIsEmpty() throws {
        let server = try TestServer()
        let api = BoardAPI(port: server.port)
        let list = try api.get("/api/boards").decode(BoardList.self)
        #expect(list.boards.map(\.id) == ["demo"])
        let demo = try api.document("demo")
        #expect(demo.seq == 0)
        #expect(!demo.board.collections.isEmpty)
        let ada = try BoardTestClient(port: server.port, board: "demo", name: "Ada")
        #expect(ada.welcome.board == demo.board)
        #expect(ada.welcome.epoch == demo.epoch)
    }

    @Test func getsABoardOr404() throws {
        let fixture = try HubFixture()
        let response = try fixture.api.get("/api/boards/board")
        #expect(response.status == 200)
        #expect(response.http.header("Content-Type")?.hasPrefix("application/json") == true)
        let document = try response.decode(BoardDocument.self)
        #expect(document.board == fixture.board)
        #expect(document.seq == 0)
        #expect(!document.epoch.isEmpty)
        #expect(document == fixture.created, "201 on create carries what GET returns")
        // The board object exactly: id, title, locked, collections, plus seq and epoch.
        #expect(Set(response.object.map { Array($0.keys) } ?? []) == ["id", "title", "locked", "collections", "seq", "epoch"])

        let missing = try fixture.api.get("/api/boards/nope")
        #expect(missing.status == 404)
        #expect(missing.object?["error"] != nil, "a JSON error body: \(missing.text)")
    }

    @Test func createsBoards201409And400() throws {
        let fixture = try HubFixture()
        let fresh = Board(
            id: "fresh", title: "Fresh",
            collections: [
                BoardCollection(id: "a", title: "A", items: [Item(id: "x1", label: "X", data: ["deep": .object(["list": .array([.number(1), .null])])])]),
                BoardCollection(id: "b", title: "B"),
            ])
        let created = try fixture.api.post("/api/boards", json: BoardAPI.newBoardBody(fresh))
        #expect(created.status == 201)
        let body = try created.decode(BoardDocument.self)
        #expect(body.board == fresh)
        #expect(body.seq == 0)
        let get = try fixture.api.get("/api/boards/fresh")
        #expect(created.json == get.json, "the 201 body is what GET returns")

        let again = try fixture.api.post("/api/boards", json: BoardAPI.newBoardBody(Board(id: "fresh", title: "Other")))
        #expect(again.status == 409)
        #expect(again.object?["error"] != nil)
        #expect(try fixture.api.document("fresh").board.title == "Fresh")

        let long = String(repeating: "q", count: 129)
        let bad: [(String, String)] = [
            ("not JSON", "{"),
            ("an array", "[]"),
            ("no id", #"{"title":"T","collections":[]}"#),
            ("no title", #"{"id":"t1","collections":[]}"#),
            ("no collections", #"{"id":"t2","title":"T"}"#),
            ("collections not an array", #"{"id":"t3","title":"T","collections":{}}"#),
            ("an item without a label", #"{"id":"t4","title":"T","collections":[{"id":"c","title":"C","items":[{"id":"x"}]}]}"#),
            (
                "an item id twice",
                #"{"id":"t5","title":"T","collections":[{"id":"c","title":"C","items":[{"id":"x","label":"1"}]},{"id":"d","title":"D","items":[{"id":"x","label":"2"}]}]}"#
            ),
            ("a collection id twice", #"{"id":"t6","title":"T","collections":[{"id":"c","title":"C"},{"id":"c","title":"D"}]}"#),
            ("a board id over 128 bytes", #"{"id":"\#(long)","title":"T","collections":[]}"#),
            ("an item id over 128 bytes", #"{"id":"t7","title":"T","collections":[{"id":"c","title":"C","items":[{"id":"\#(long)","label":"x"}]}]}"#),
            ("an empty board id", #"{"id":"","title":"T","collections":[]}"#),
        ]
        for (what, body) in bad {
            let response = try fixture.api.post("/api/boards", body: body)
            #expect(response.status == 400, "\(what): \(response)")
            #expect(response.object?["error"] != nil, "\(what): a JSON error body")
        }
        // Strict, and the culprit named by its path in the body.
        let unknown = try fixture.api.post(
            "/api/boards", body: #"{"id":"t8","title":"T","collections":[{"id":"c","title":"C","items":[{"id":"x","label":"1","colour":"red"}]}]}"#)
        #expect(unknown.status == 400)
        #expect(unknown.object?["message"] == #"unknown field "collections[0].items[0].colour""#)
        let twice = try fixture.api.post("/api/boards", body: bad[7].1)
        #expect(twice.object?["message"] == "collections[1].items[0].id: item id x appears twice (first at collections[0].items[0].id)")
        #expect(try fixture.api.get("/api/boards").decode(BoardList.self).boards.map(\.id) == ["board", "fresh"])
    }

    @Test func anHTTPOperationIsCommittedAndBroadcastToWebSocketMembers() throws {
        let fixture = try HubFixture()
        let ada = try fixture.join("Ada")
        let request = Self.move(["i1"], to: "done", before: "i7", opId: "http-1")
        let response = try fixture.api.perform("board", request)
        #expect(response.status == 200)
        #expect(response.http.header("Content-Type")?.hasPrefix("application/json") == true)
        let event = try #require(try response.message().committedEvent, "not a committed body: \(response)")
        #expect(event.seq == 1)
        #expect(event.opId == "http-1")
        #expect(event.op == .move(sources: ["i1"], destination: Destination(collection: "done", before: "i7")))
        #expect(response.object?["type"] == "committed")
        // The WebSocket member gets the same event.
        #expect(try ada.nextMessage() == .committed(event))
        try fixture.expectAgreement([ada])
    }

    @Test func operationStatuses() throws {
        let fixture = try HubFixture()
        let ada = try fixture.join("Ada")
        let api = fixture.api

        let noop = try api.perform("board", Self.move(["i2"], to: "todo", before: "i3", opId: "h-noop"))
        #expect(noop.status == 200)
        #expect(try noop.message() == .noop(Noop(opId: "h-noop", seq: 0)))

        let invalid = try api.perform("board", Self.move(["i1"], to: "done", opId: "h-invalid", baseSeq: 5))
        #expect(invalid.status == 400)
        #expect(try invalid.message().rejection?.code == .invalid)
        #expect(try invalid.message().rejection?.opId == "h-invalid")

        let gone = try api.perform("board", OperationRequest(opId: "h-gone", baseSeq: 0, .delete(items: ["ghost"])))
        #expect(gone.status == 409)
        #expect(try gone.message().rejection?.code == .gone)

        let unknown = try api.perform("no-such-board", Self.move(["i1"], to: "done", opId: "h-404"))
        #expect(unknown.status == 404)
        #expect(unknown.json != nil, "a JSON body: \(unknown.text)")

        let lock = try api.perform("board", OperationRequest(opId: "h-lock", .lock(locked: true)))
        #expect(lock.status == 200)
        #expect(try lock.message().committedEvent?.op == .lock(locked: true))
        let locked = try api.perform("board", Self.move(["i1"], to: "done", opId: "h-locked", baseSeq: 1))
        #expect(locked.status == 423)
        #expect(try locked.message().rejection?.code == .locked)
        let unlock = try api.perform("board", OperationRequest(opId: "h-unlock", .lock(locked: false)))
        #expect(unlock.status == 200)
        // The transient rejection is resolved anew.
        let retried = try api.perform("board", Self.move(["i1"], to: "done", opId: "h-locked", baseSeq: 2))
        #expect(retried.status == 200)
        #expect(try retried.message().committedEvent?.seq == 3)

        // Bodies that are not an operation at all: 400 with the API's error body, not a wire message.
        for body in [
            "{", "[]", #"{"type":"move","baseSeq":0,"sources":["i1"],"destination":{"collection":"done"}}"#,
            #"{"type":"teleport","opId":"x"}"#, #"{"type":"hello","board":"board","name":"x"}"#,
        ] {
            let response = try api.post("/api/boards/board/ops", body: body)
            #expect(response.status == 400, "\(body): \(response)")
            #expect(response.object?["error"] == "bad request", "\(body): \(response)")
            #expect(Set(response.object.map { Array($0.keys) } ?? []) == ["error", "message"], "\(body): \(response)")
        }
        // An operation with an opId but an ill-typed field: 400 with `rejected`.
        let illTyped = try api.post(
            "/api/boards/board/ops", body: #"{"type":"move","opId":"h-typed","baseSeq":0,"sources":"i1","destination":{"collection":"done"}}"#)
        #expect(illTyped.status == 400)
        #expect(try illTyped.message().rejection?.code == .invalid)
        #expect(try illTyped.message().rejection?.opId == "h-typed")

        // Ada saw exactly the three commits.
        let seen = try ada.syncCommitted()
        #expect(seen.compactMap(\.committedEvent).map(\.opId) == ["h-lock", "h-unlock", "h-locked"])
        #expect(try fixture.expectAgreement([ada]).seq == 3)
    }

    /// `collection.move` over HTTP: committed in anchor form, broadcast, in the log; a body of
    /// the wrong shape 400, an empty list 400 `invalid`, a column nobody has 409 `gone`.
    @Test func aColumnMoveOverHTTPIsCommittedBroadcastAndLogged() throws {
        let fixture = try HubFixture()
        let ada = try fixture.join("Ada")
        let api = fixture.api
        let moved = try api.post(
            "/api/boards/board/ops", body: #"{"type":"collection.move","opId":"h-cols","baseSeq":0,"fromOffsets":[1],"toOffset":0}"#)
        #expect(moved.status == 200)
        let event = try #require(try moved.message().committedEvent, "not a committed body: \(moved)")
        #expect(event.op == .moveCollections(collections: ["done"], before: "todo"))
        #expect(try ada.nextMessage() == .committed(event))
        #expect(try fixture.document().board.collections.map(\.id) == ["done", "todo"])
        #expect(try api.get("/api/boards/board/ops?since=0").decode(EventPage.self) == EventPage(events: [event]))

        let empty = try api.post("/api/boards/board/ops", body: #"{"type":"collection.move","opId":"h-empty","baseSeq":1,"collections":[]}"#)
        #expect(empty.status == 400)
        #expect(try empty.message().rejection?.code == .invalid)
        let typed = try api.post("/api/boards/board/ops", body: #"{"type":"collection.move","opId":"h-typed","baseSeq":1,"collections":"todo"}"#)
        #expect(typed.status == 400)
        #expect(try typed.message().rejection?.opId == "h-typed")
        let gone = try api.post("/api/boards/board/ops", body: #"{"type":"collection.move","opId":"h-gone","baseSeq":1,"collections":["nowhere"]}"#)
        #expect(gone.status == 409)
        #expect(try gone.message().rejection?.code == .gone)
        try fixture.expectAgreement([ada])
    }

    @Test func readsTheLogSinceASeq() throws {
        let fixture = try HubFixture()
        let ada = try fixture.join("Ada")
        try ada.commit(.move(sources: ["i1"], destination: Destination(collection: "done")))
        try ada.commit(.delete(items: ["i2"]))
        try ada.commit(.updateItem(item: "i3", label: "Three!", data: .unchanged))

        #expect(try fixture.api.events("board") == ada.events, "since defaults to 0")
        #expect(try fixture.api.events("board", since: 0) == ada.events)
        #expect(try fixture.api.events("board", since: 1) == Array(ada.events[1...]))
        #expect(try fixture.api.events("board", since: 3) == [])
        // Each event exactly as the WebSocket `committed` message.
        let page = try fixture.api.get("/api/boards/board/ops?since=2")
        #expect(page.status == 200)
        let events = try #require(page.object?["events"]?.elements, "events is not an array: \(page.text)")
        #expect(events.count == 1)
        let fromSocket = try JSONDecoder().decode(JSONValue.self, from: Data(ada.rawLog.last!.utf8))
        #expect(events.first == fromSocket)

        for query in ["?since=4", "?since=abc", "?since=1.5", "?limit=0", "?since=0&limit=10001", "?after=1", "?since=1&since=2"] {
            let response = try fixture.api.get("/api/boards/board/ops\(query)")
            #expect(response.status == 400, "\(query): \(response)")
            #expect(response.json != nil, "\(query): a JSON body")
        }
        let unknown = try fixture.api.get("/api/boards/nope/ops?since=0")
        #expect(unknown.status == 404)
    }

    @Test func readsTheLogInPagesFollowingNext() throws {
        let fixture = try HubFixture()
        let ada = try fixture.join("Ada")
        for round in 0..<5 {
            try ada.commit(.updateItem(item: "i1", label: "One \(round)", data: .unchanged))
        }
        var seqs: [[Int]] = []
        var nexts: [Int?] = []
        var since = 0
        for _ in 0..<10 {
            let response = try fixture.api.get("/api/boards/board/ops?since=\(since)&limit=2")
            #expect(response.status == 200, "\(response)")
            let page = try response.decode(EventPage.self)
            seqs.append(page.events.map(\.seq))
            nexts.append(page.next)
            guard let next = page.next else { break }
            since = next
        }
        #expect(seqs == [[1, 2], [3, 4], [5]])
        #expect(nexts == [2, 4, nil])
        #expect(
            try fixture.api.get("/api/boards/board/ops?since=4&limit=1").decode(EventPage.self) == EventPage(events: [ada.events[4]]),
            "the page that reaches the board's seq has no next")
        #expect(try fixture.api.get("/api/boards/board/ops?since=5").text == #"{"events":[]}"#)
    }

    @Test func readingTheLogFromBeforeTheKeptHistoryIs410() throws {
        let fixture = try HubFixture { $0.hub.historyCapacity = 5 }
        let ada = try fixture.join("Ada")
        for round in 0..<10 {
            try ada.commit(.updateItem(item: "i1", label: "One \(round)", data: .unchanged))
        }
        let old = try fixture.api.get("/api/boards/board/ops?since=1")
        #expect(old.status == 410)
        #expect(old.json != nil)
        #expect(try fixture.api.get("/api/boards/board/ops").status == 410, "since defaults to 0, long gone")
        // The last five are kept.
        #expect(try fixture.api.events("board", since: 5) == Array(ada.events[5...]))
        #expect(try fixture.api.events("board", since: 10) == [])
    }
}
