import CorkboardModel
import CorkboardSQLite
import CorkboardWire
import Foundation
import TestSupport
import Testing

/// A full disk while the server runs, at the server level, on the real SQLite store (its
/// size capped with `PRAGMA max_page_count`): `unavailable` (docs/protocol.md#outcomes) —
/// nothing changed, nobody heard of it, the message says why — and once there is room
/// again, the same opId commits without a restart.
@Suite(.threadsOfTheirOwn) struct DurabilityDiskFullTests {
    /// An insert big enough to need new pages: 400 items with 200-byte labels (about 100 KB).
    static func bulkyInsert() -> RequestedOperation {
        .insert(
            items: (0..<400).map { Item(id: "bulk-\($0)", label: String(repeating: "x", count: 200)) },
            destination: Destination(collection: "todo"))
    }

    @Test func aFullDiskIsUnavailableChangesNothingAndTheSameOpIdCommitsOnceThereIsRoom() throws {
        let folder = try TemporaryDirectory("corkboard-full")
        let store = try SQLiteStore(directory: folder.path + "/db", syncMode: .normal)
        let server = try TestServer(store: store) { $0.createsDemoBoard = false }
        let api = BoardAPI(port: server.port)
        try api.createBoard(HubFixture.standardBoard)
        let ada = try BoardTestClient(port: server.port, board: "board", name: "Ada")
        let bob = try BoardTestClient(port: server.port, board: "board", name: "Bob")
        try ada.commit(.move(sources: ["i1"], destination: Destination(collection: "done")))
        try bob.waitUntilSeq(1)
        let before = try api.document("board")

        // The disk is full: the database may not grow by a single page.
        try store.setMaxPageCount(try store.pageCount())

        let bulky = ada.request(Self.bulkyInsert())
        guard case .rejected(let rejected) = try ada.perform(bulky) else {
            Issue.record("an operation that cannot be made durable must be rejected")
            return
        }
        #expect(rejected.code == .unavailable)
        #expect(rejected.opId == bulky.opId)
        let message = rejected.message ?? ""
        #expect(message.contains("full") && message.contains("corkboard.sqlite"), "says why, and which file: \(message)")

        // Nothing changed: not the served board, not its history, and Bob heard of nothing.
        #expect(try api.document("board") == before)
        #expect(try api.events("board", since: 0).count == 1)
        #expect(try bob.syncCommitted().isEmpty)
        #expect(ada.seq == 1)

        // Over HTTP too: 503 with the same code.
        let overHTTP = try api.perform(
            "board",
            bob.request(
                .insert(
                    items: (0..<400).map { Item(id: "http-\($0)", label: String(repeating: "y", count: 200)) },
                    destination: Destination(collection: "done"))))
        #expect(overHTTP.status == 503)
        #expect(try overHTTP.message().rejection?.code == .unavailable)

        // Room again: the same opId is resolved anew (unavailable is transient) and commits.
        try store.setMaxPageCount(1_000_000)
        guard case .committed(let event) = try ada.perform(bulky) else {
            Issue.record("the same opId must commit once there is room")
            return
        }
        #expect(event.seq == 2)
        #expect(event.opId == bulky.opId)
        try bob.waitUntilSeq(2)
        #expect(bob.board == ada.board)
        #expect(try api.document("board").board == ada.board)
        #expect(ada.board.ids("todo").count == 4 + 400)
    }
}
