import CorkboardHub
import CorkboardModel
import CorkboardServer
import CorkboardStore
import CorkboardWire
import Foundation
import TestSupport
import Testing

/// Ids that differ only in their Unicode spelling (`"caf\u{E9}"`, NFC, and `"cafe\u{301}"`,
/// NFD) are one string to Swift and two to SQLite, PostgreSQL, JavaScript and Python. The
/// server takes NFC ids only and compares grants as bytes, so a token for one spelling never
/// opens the other, and no board, item or opId is ever met under a second spelling.
@Suite(.threadsOfTheirOwn) struct HostileUnicodeIdentityTests {
    static let nfc = "caf\u{E9}"
    static let nfd = "cafe\u{301}"
    static let secret = "a-test-secret-of-more-than-thirty-two-bytes"
    static let signer = try! SignedTokens(secrets: [secret])

    static func server() throws -> TestServer {
        let file = try TokenFile(grants: [
            TokenFile.Grant(token: "owner-token", role: .owner, boards: .all),
            TokenFile.Grant(token: "victim-token", role: .editor, boards: [nfc]),
        ])
        return try TestServer {
            $0.createsDemoBoard = false
            $0.access = ServerAccess(file: file, signed: signer)
        }
    }

    static func signed(boards: BoardScope) -> String {
        signer.mint(SignedTokenClaims(subject: "mallory", name: "Mallory", boards: boards, role: .editor, expires: Date().addingTimeInterval(600)))
    }

    /// A board id in a request target: percent-encoded bytes, as a browser sends them.
    static func path(_ board: String) -> String {
        "/api/boards/" + board.utf8.map { String(format: "%%%02X", $0) }.joined()
    }

    /// The NFC board's log, read by its owner.
    static func events(port: UInt16) throws -> [CommittedEvent] {
        let response = try Unharmed.get(port, path(nfc) + "/ops?since=0", token: "owner-token")
        guard response.status == 200 else { throw HubTestFailure("GET ops: \(response.status) \(response.text)") }
        return try JSONDecoder().decode(EventPage.self, from: Data(response.body)).events
    }

    @Test func aGrantForOneSpellingNeverOpensTheOther() async throws {
        try await offPool {
            let server = try Self.server()
            let port = server.port
            try Unharmed.createBoard(port: port, id: Self.nfc, token: "owner-token")
            // The other spelling is no board id: it cannot be created beside it ...
            var other = HubFixture.standardBoard
            other.id = Self.nfd
            let body = String(decoding: try WireFormat.encode(BoardAPI.newBoardBody(other)), as: UTF8.self)
            let created = try Unharmed.post(port, "/api/boards", body: body, token: "owner-token")
            #expect(created.status == 400 && created.text.contains("Unicode NFC"), "\(created.status) \(created.text)")
            // ... nor read, joined or changed, whoever asks.
            #expect(try Unharmed.get(port, Self.path(Self.nfd), token: "owner-token").status == 404)
            #expect(try Unharmed.get(port, Self.path(Self.nfd), token: "victim-token").status == 403)
            #expect(try Unharmed.get(port, Self.path(Self.nfc), token: "victim-token").status == 200)
            let (ownerError, _) = try HelloProbe.refusedHello(port: port, board: Self.nfd, token: "owner-token")
            #expect(ownerError?.code == .notFound)
            let (victimError, _) = try HelloProbe.refusedHello(port: port, board: Self.nfd, token: "victim-token")
            #expect(victimError?.code == .forbidden)
            let delete = OperationRequest(opId: "d-1", baseSeq: 0, .delete(items: ["i1"]))
            let deleteBody = String(decoding: try WireFormat.encode(ClientMessage.operation(delete)), as: UTF8.self)
            #expect(try Unharmed.post(port, Self.path(Self.nfd) + "/ops", body: deleteBody, token: "victim-token").status == 403)

            // A signed token granting the other spelling, or every board by a lone "*" in a
            // list, proves nothing: it is refused as a whole.
            for boards: BoardScope in [[Self.nfd], ["*"]] {
                let (error, _) = try HelloProbe.refusedHello(port: port, board: Self.nfc, token: Self.signed(boards: boards))
                #expect(error?.code == .unauthorized, "\(boards): \(String(describing: error))")
                #expect(try Unharmed.get(port, Self.path(Self.nfc), token: Self.signed(boards: boards)).status == 401)
            }
            // The victim's board is as it was.
            #expect(try Self.events(port: port).isEmpty)
        }
    }

    @Test func itemsCollectionsAndOpIdsAreNeverMetUnderAnotherSpelling() async throws {
        try await offPool {
            let server = try Self.server()
            let port = server.port
            try Unharmed.createBoard(port: port, id: Self.nfc, token: "owner-token")
            let victim = try BoardTestClient(port: port, board: Self.nfc, name: "Victim", token: "victim-token")
            let inserted = try victim.commit(.insert(items: [Item(id: Self.nfc, label: "Café")], destination: Destination(collection: "todo")))

            // Naming the item, its place or a collection in the other spelling is invalid.
            for operation: RequestedOperation in [
                .move(sources: [Self.nfd], destination: Destination(collection: "done")),
                .move(sources: ["i2"], destination: Destination(collection: "todo", before: Self.nfd)),
                .insert(items: [Item(id: Self.nfd, label: "Twin")], destination: Destination(collection: "todo")),
                .delete(items: [Self.nfd]),
                .updateItem(item: Self.nfd, label: "defaced", data: .unchanged),
                .addCollection(collection: "cafe\u{301}s", title: "Twin", before: nil),
            ] {
                let rejected = try victim.reject(operation, baseSeq: victim.seq)
                #expect(rejected.code == .invalid && rejected.message?.contains("Unicode NFC") == true, "\(operation): \(rejected)")
            }
            try victim.send(.dragStart(items: [Self.nfd]))
            #expect(try victim.waitFor(type: "rejected").rejection.map { $0.ref == "drag.start" && $0.code == .invalid } == true)
            // A placeholder in a collection named in the other spelling.
            _ = try victim.commit(.addCollection(collection: "caf\u{E9}s", title: "Cafés", before: nil))
            try victim.send(.dragStart(items: ["i2"]))
            try victim.send(.dragOver(collection: "cafe\u{301}s", index: 0))
            #expect(try victim.waitFor(type: "error").errorMessage.map { $0.code == .invalid && $0.message.contains("Unicode NFC") } == true)
            try victim.send(.dragEnd)

            // An opId committed under one spelling, sent again under the other: refused,
            // never answered as the first (a byte-exact client would take it for another).
            let first = victim.request(.move(sources: ["i3"], destination: Destination(collection: "done")), baseSeq: victim.seq)
            let committed = OperationRequest(opId: Self.nfc, baseSeq: first.baseSeq, first.operation)
            guard case .committed(let event) = try victim.perform(committed) else {
                Issue.record("expected the NFC opId to commit")
                return
            }
            #expect(event.opId == Self.nfc && Array(event.opId.utf8) == Array(Self.nfc.utf8))
            let twin = OperationRequest(opId: Self.nfd, baseSeq: victim.seq, .move(sources: ["i4"], destination: Destination(collection: "done")))
            guard case .rejected(let refused) = try victim.perform(twin) else {
                Issue.record("expected the NFD opId to be refused")
                return
            }
            #expect(refused.code == .invalid && refused.message?.contains("opId") == true)

            // The log holds the item and the opId in the spelling that was committed, once each.
            let events = try Self.events(port: port)
            #expect(events.map(\.seq) == [1, 2, 3])
            #expect(events.first == inserted)
            #expect(events.allSatisfy { !$0.opId.utf8.elementsEqual(Self.nfd.utf8) })
        }
    }

    /// A board stored before 0.24 with an item id in another form still loads (ids enter
    /// through the edges, which now refuse them; what is stored is not lost).
    @Test func aBoardStoredWithAnotherFormStillLoads() async throws {
        try await offPool {
            let store = MemoryStore()
            var legacy = HubFixture.standardBoard
            legacy.collections[0].items.append(Item(id: Self.nfd, label: "Stored before 0.24"))
            let created = DispatchSemaphore(value: 0)
            store.createBoard(legacy, epoch: "legacy-epoch") { _ in created.signal() }
            created.wait()
            let server = try TestServer(store: store) { $0.createsDemoBoard = false }
            let client = try BoardTestClient(port: server.port, board: "board", name: "Ada")
            #expect(client.board.collections[0].items.last.map { Array($0.id.utf8) } == Array(Self.nfd.utf8))
            try Unharmed.commitAMove(client)
        }
    }
}
