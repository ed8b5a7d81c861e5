import CorkboardModel
import CorkboardWire
import Foundation
import TestSupport
import Testing

/// docs/protocol.md#resending-an-opid: an opId sent again gets its first outcome "when that
/// outcome was committed, a noop, or a permanent rejection". A noop is not sequenced, so it
/// is not in the log: does its outcome survive a restart? It must: otherwise the resend is
/// resolved anew on a board that may have changed since, and a move the client was told
/// changed nothing is applied after all. (Noops travel to the store with the batch, like
/// permanent rejections.)
@Suite(.threadsOfTheirOwn) struct DurabilityNoopReplayTests {
    @Test func aNoopIsStillTheAnswerToItsOpIdAfterARestart() throws {
        let host = try RestartableServer()
        try host.start()
        try host.api.createBoard(HubFixture.standardBoard)
        let ada = try BoardTestClient(port: host.port, board: "board", name: "Ada")
        // i5 is already last in "todo": moving it to the end changes nothing.
        let inPlace = ada.request(.move(sources: ["i5"], destination: Destination(collection: "todo")))
        let first = try ada.perform(inPlace)
        #expect(first == .noop(Noop(opId: inPlace.opId, seq: 0)))
        // Before the restart the outcome is remembered, even once the board has changed.
        try ada.commit(.move(sources: ["i1"], destination: Destination(collection: "todo")))
        #expect(try ada.perform(inPlace) == first)

        host.stop()
        try host.start()
        let ada2 = try BoardTestClient(port: host.port, board: "board", name: "Ada")
        let answer = try ada2.perform(inPlace)
        let seq = try host.api.document("board").seq
        #expect(answer == first, "the first outcome, not a new resolution")
        #expect(seq == 1, "nothing applied: \(answer)")
    }
}
