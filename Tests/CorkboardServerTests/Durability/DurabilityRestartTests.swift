import CorkboardModel
import CorkboardWire
import Foundation
import TestSupport
import Testing

/// A clean stop and a start on the same data folder (issue #8): the boards, their seqs,
/// epochs and histories come back exactly, seq continues from where it stopped, and an opId
/// sent again after the restart gets its first outcome (docs/protocol.md#resending-an-opid)
/// — the committed event for a committed one, the same rejection for a permanent rejection
/// — instead of being applied twice.
@Suite(.threadsOfTheirOwn) struct DurabilityRestartTests {
    static let notes = HubFixture.grid(id: "notes", collections: 2, itemsEach: 3)

    @Test func boardsHistoriesAndOpIdOutcomesSurviveACleanRestart() throws {
        let host = try RestartableServer()
        try host.start()
        try host.api.createBoard(HubFixture.standardBoard)
        try host.api.createBoard(Self.notes)

        // Board "board": moves (by anchor and by offsets), an insert, a delete, an update.
        let ada = try BoardTestClient(port: host.port, board: "board", name: "Ada")
        let bob = try BoardTestClient(port: host.port, board: "board", name: "Bob")
        let firstMove = ada.request(.move(sources: ["i1"], destination: Destination(collection: "done", before: "i7")))
        guard case .committed(let firstMoveEvent) = try ada.perform(firstMove) else {
            Issue.record("the first move was not committed")
            return
        }
        try bob.waitUntilSeq(1)
        try bob.commit(.insert(items: [Item(id: "n1", label: "New")], destination: Destination(collection: "todo")))
        try ada.waitUntilSeq(2)
        let delete = ada.request(.delete(items: ["i4"]))
        guard case .committed(let deleteEvent) = try ada.perform(delete) else {
            Issue.record("the delete was not committed")
            return
        }
        try bob.waitUntilSeq(3)
        try bob.commit(.updateItem(item: "i2", label: "Two (edited)", data: .replace(["done": .bool(true)])))
        try ada.waitUntilSeq(4)
        try ada.commit(.moveByOffsets(collection: "todo", fromOffsets: [0], toOffset: 2, toCollection: nil))
        // A permanent rejection: i4 was deleted, so moving it is `gone`.
        let goneMove = bob.request(.move(sources: ["i4"], destination: Destination(collection: "done")))
        guard case .rejected(let gone) = try bob.perform(goneMove) else {
            Issue.record("moving a deleted item must be rejected")
            return
        }
        #expect(gone.code == .gone)
        // i4 exists again (a new item with the old id): were the gone move resolved anew
        // rather than answered from memory, it would now commit. Likewise the delete.
        try bob.commit(.insert(items: [Item(id: "i4", label: "Four again")], destination: Destination(collection: "todo")))

        // Board "notes": a move, then a lock, which must still hold after the restart.
        let cy = try BoardTestClient(port: host.port, board: "notes", name: "Cy")
        try cy.commit(.move(sources: ["c0-i0"], destination: Destination(collection: "c1")))
        try cy.commit(.lock(locked: true))

        let before = try host.api.get("/api/boards").decode(BoardList.self)
        let boardBefore = try Durability.expectConsistentHistory(host.api, board: "board", from: HubFixture.standardBoard)
        let notesBefore = try Durability.expectConsistentHistory(host.api, board: "notes", from: Self.notes)
        #expect(boardBefore.document.seq == 6)
        #expect(notesBefore.document.board.locked)
        // Everything a client saw is what the server holds.
        try ada.waitUntilSeq(6)
        #expect(ada.board == boardBefore.document.board && bob.board == boardBefore.document.board)

        host.stop()
        try host.start()
        let api = host.api

        // The same boards, seqs, epochs and histories.
        #expect(try api.get("/api/boards").decode(BoardList.self) == before)
        let boardAfter = try Durability.expectConsistentHistory(api, board: "board", from: HubFixture.standardBoard)
        let notesAfter = try Durability.expectConsistentHistory(api, board: "notes", from: Self.notes)
        #expect(boardAfter.document == boardBefore.document, "board, seq and epoch unchanged")
        #expect(boardAfter.history == boardBefore.history)
        #expect(notesAfter.document == notesBefore.document)
        #expect(notesAfter.history == notesBefore.history)

        let ada2 = try BoardTestClient(port: host.port, board: "board", name: "Ada")
        let bob2 = try BoardTestClient(port: host.port, board: "board", name: "Bob")
        #expect(ada2.welcome.epoch == ada.welcome.epoch, "a restart never changes the epoch")
        #expect(ada2.welcome.seq == 6)
        #expect(ada2.board == boardBefore.document.board)

        // The first move sent again, over WebSocket: its first outcome, to the sender alone.
        #expect(try ada2.perform(firstMove) == .committed(firstMoveEvent))
        // The delete sent again, over HTTP: the same event, 200.
        let resentDelete = try api.perform("board", delete)
        #expect(resentDelete.status == 200)
        #expect(try resentDelete.message() == .committed(deleteEvent))
        // The permanent rejection is remembered across the restart: `gone` again.
        guard case .rejected(let goneAgain) = try ada2.perform(goneMove) else {
            Issue.record("the gone move sent again must be rejected again")
            return
        }
        #expect(goneAgain.code == .gone)
        #expect(goneAgain.opId == goneMove.opId)
        // Nothing was applied twice: nobody heard of a new event and the seq stands.
        #expect(try bob2.syncCommitted().isEmpty)
        #expect(try api.document("board").seq == 6)
        #expect(try api.document("board").board == boardBefore.document.board)

        // Seq continues: the next operation is 7, and everyone gets it.
        let next = try ada2.commit(.move(sources: ["i5"], destination: Destination(collection: "done", before: "i1")))
        #expect(next.seq == boardBefore.document.seq + 1)
        try bob2.waitUntilSeq(7)
        #expect(bob2.board == ada2.board)
        #expect(try api.document("board").board == ada2.board)

        // "notes" is still locked; unlocking continues its seq.
        let cy2 = try BoardTestClient(port: host.port, board: "notes", name: "Cy")
        #expect(cy2.welcome.board?.locked == true)
        #expect(try cy2.reject(.move(sources: ["c0-i1"], destination: Destination(collection: "c1"))).code == .locked)
        #expect(try cy2.commit(.lock(locked: false)).seq == notesBefore.document.seq + 1)
    }
}
