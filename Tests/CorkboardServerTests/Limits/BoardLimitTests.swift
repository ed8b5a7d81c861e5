import CorkboardModel
import CorkboardWire
import Foundation
import TestSupport
import Testing

/// The limits on what clients may make the server hold: boards (507 past the limit), items and
/// collections per board and an item's data (`rejected` `invalid`), and the size of one message
/// (close 1009). Whoever hits one gets
/// its documented answer; everyone else carries on.
@Suite(.threadsOfTheirOwn) struct BoardLimitTests {
    @Test func pastTheBoardLimitCreatingIsRefusedWith507() async throws {
        try await offPool {
            let fixture = try HubFixture { $0.hub.maxBoards = 3 }
            let port = fixture.port
            let before = try Unharmed.seed(port: port)
            try Unharmed.createBoard(port: port, id: "second")
            try Unharmed.createBoard(port: port, id: "third")
            var board = HubFixture.standardBoard
            board.id = "fourth"
            let body = String(decoding: try WireFormat.encode(BoardAPI.newBoardBody(board)), as: UTF8.self)
            let refused = try Unharmed.post(port, "/api/boards", body: body, token: nil)
            #expect(refused.status == 507)
            #expect(refused.text.contains("maximum of 3 boards"))
            #expect(try Unharmed.get(port, "/api/boards/fourth", token: nil).status == 404)
            try Unharmed.expect(port: port, eventsBefore: before)
        }
    }

    @Test func pastTheItemLimitInsertsAreRejectedInvalid() async throws {
        // The standard board holds 8 items.
        try await offPool {
            let fixture = try HubFixture { $0.hub.maxItemsPerBoard = 10 }
            let port = fixture.port
            let before = try Unharmed.seed(port: port)
            let filler = try fixture.join("Filler")
            let other = try fixture.join("Other")
            let two = [Item(id: "n1", label: "1"), Item(id: "n2", label: "2")]
            try filler.commit(.insert(items: two, destination: Destination(collection: "todo")))
            let rejected = try filler.reject(.insert(items: [Item(id: "n3", label: "3")], destination: Destination(collection: "todo")))
            #expect(rejected.code == .invalid)
            #expect(rejected.message?.contains("at most 10 items") == true)
            // Over HTTP too.
            let request = OperationRequest(
                opId: "http-n4", baseSeq: 0, .insert(items: [Item(id: "n4", label: "4")], destination: Destination(collection: "todo")))
            let body = String(decoding: try WireFormat.encode(ClientMessage.operation(request)), as: UTF8.self)
            #expect(try Unharmed.post(port, "/api/boards/board/ops", body: body, token: nil).status == 400)
            // A board created already over the limit is refused.
            let big = HubFixture.grid(id: "big", collections: 2, itemsEach: 6)
            let bigBody = String(decoding: try WireFormat.encode(BoardAPI.newBoardBody(big)), as: UTF8.self)
            let createdBig = try Unharmed.post(port, "/api/boards", body: bigBody, token: nil)
            #expect(createdBig.status == 400 && createdBig.text.contains("at most 10 items"))
            // Moves and deletes go on; after a delete there is room again.
            try Unharmed.commitAMove(other)
            try other.commit(.delete(items: ["n1"]))
            try filler.commit(.insert(items: [Item(id: "n5", label: "5")], destination: Destination(collection: "todo")))
            try fixture.expectAgreement([filler, other])
            try Unharmed.expect(port: port, eventsBefore: try Unharmed.events(port: port, board: "board", token: nil))
            #expect(try Unharmed.events(port: port, board: "board", token: nil).starts(with: before))
        }
    }

    @Test func pastTheCollectionLimitAddsAreRejectedInvalid() async throws {
        // The standard board has two collections.
        try await offPool {
            let fixture = try HubFixture { $0.hub.maxCollectionsPerBoard = 3 }
            let port = fixture.port
            let before = try Unharmed.seed(port: port)
            let editor = try fixture.join("Editor")
            let other = try fixture.join("Other")
            try editor.commit(.addCollection(collection: "later", title: "Later", before: nil))
            let rejected = try editor.reject(.addCollection(collection: "someday", title: "Someday", before: nil))
            #expect(rejected.code == .invalid)
            #expect(rejected.message == "the board holds at most 3 collections")
            // A board created already over the limit is refused.
            let wide = HubFixture.grid(id: "wide", collections: 4, itemsEach: 1)
            let wideBody = String(decoding: try WireFormat.encode(BoardAPI.newBoardBody(wide)), as: UTF8.self)
            let created = try Unharmed.post(port, "/api/boards", body: wideBody, token: nil)
            #expect(created.status == 400 && created.text.contains("at most 3 collections"))
            try Unharmed.commitAMove(other)
            try fixture.expectAgreement([editor, other])
            #expect(try Unharmed.events(port: port, board: "board", token: nil).starts(with: before))
        }
    }

    @Test func itemDataPastItsBoundIsRejectedInvalidAndTheSenderCarriesOn() async throws {
        try await offPool {
            let fixture = try HubFixture()
            let port = fixture.port
            let before = try Unharmed.seed(port: port)
            let editor = try fixture.join("Editor")
            // 100 KB of data: under the 1 MiB message bound, over the 64 KiB data bound.
            let big: JSONObject = ["blob": .string(String(repeating: "x", count: 100_000))]
            let rejected = try editor.reject(.updateItem(item: "i2", label: nil, data: .replace(big)))
            #expect(rejected.code == .invalid)
            #expect(rejected.message == "data of item i2 is longer than 65536 bytes")
            #expect(try editor.reject(.insert(items: [Item(id: "n1", label: "N", data: big)], destination: Destination(collection: "todo"))).code == .invalid)
            var board = HubFixture.standardBoard
            board.id = "heavy"
            board.collections[0].items[0].data = big
            let body = String(decoding: try WireFormat.encode(BoardAPI.newBoardBody(board)), as: UTF8.self)
            let created = try Unharmed.post(port, "/api/boards", body: body, token: nil)
            #expect(created.status == 400 && created.text.contains("data of item i1 is longer than 65536 bytes"))
            // NUL anywhere is refused at the edge as well, on every store.
            board.collections[0].items[0].data = nil
            board.title = "heavy\u{0}"
            let withNUL = String(decoding: try WireFormat.encode(BoardAPI.newBoardBody(board)), as: UTF8.self)
            let refused = try Unharmed.post(port, "/api/boards", body: withNUL, token: nil)
            #expect(refused.status == 400 && refused.text.contains("title: board title holds a NUL character"), "\(refused.text)")
            // The same connection goes on.
            try editor.commit(.updateItem(item: "i2", label: nil, data: .replace(["small": .bool(true)])))
            #expect(try Unharmed.events(port: port, board: "board", token: nil).starts(with: before))
        }
    }

    @Test func aMessageOverTheSizeLimitClosesOnlyItsSenderWith1009() async throws {
        try await offPool {
            let fixture = try HubFixture { $0.webSocket.maxMessageSize = 4096 }
            let port = fixture.port
            let before = try Unharmed.seed(port: port)
            let big = try fixture.join("Big")
            let other = try fixture.join("Other")
            let label = String(repeating: "x", count: 5000)
            try big.send(json: #"{"type":"insert","opId":"big-1","baseSeq":0,"items":[{"id":"big","label":"\#(label)"}],"destination":{"collection":"todo"}}"#)
            #expect(try big.expectClose() == .messageTooBig)
            _ = try other.waitFor(type: "peer.left")
            try Unharmed.commitAMove(other)
            try Unharmed.expect(port: port, eventsBefore: before + [other.events.last!])
        }
    }
}
