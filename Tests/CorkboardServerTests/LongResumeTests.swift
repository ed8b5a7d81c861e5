import CorkboardModel
import CorkboardWire
import Testing
import TestSupport

/// A resume that spans several replay pieces (512 events each): every piece waits until the
/// socket has written the last, live events keep arriving meanwhile, and the client still
/// gets every missed event exactly once, in order, then live traffic.
@Suite struct LongResumeTests {
    @Test func aLongReplayArrivesInPiecesWithoutGapsOrRepeats() throws {
        let fixture = try HubFixture()
        let ada = try fixture.join("Ada")
        let bob = try fixture.join("Bob")
        _ = try ada.waitFor(type: "peer.joined")
        bob.drop()

        // 1,500 real changes, pipelined: i1 travels between the ends of the two collections.
        let total = 1_500
        for index in 0..<total {
            let collection = index % 2 == 0 ? "done" : "todo"
            try ada.send(.move(sources: ["i1"], destination: Destination(collection: collection)), baseSeq: 0)
        }
        try ada.waitUntilSeq(total)

        let returning = try fixture.join("Bob", resumeFrom: bob)
        #expect(returning.welcome.resumed)
        #expect(returning.welcome.seq == 0)
        // A small receive buffer keeps the socket from swallowing the replay in one go.
        returning.ws.socket.setReceiveBuffer(32 * 1024)
        // A resend of an opId the replay has not reached yet: its answer waits for the replay.
        let resent = ada.events[699]
        returning.expectRepeat(of: resent.opId)
        try returning.send(.operation(OperationRequest(opId: resent.opId, baseSeq: 0, .delete(items: ["i1"]))))
        // Live events while the replay is under way.
        try ada.commit(.move(sources: ["i2"], destination: Destination(collection: "done")))
        try ada.commit(.move(sources: ["i3"], destination: Destination(collection: "done")))
        try returning.waitUntilSeq(total + 2)
        #expect(returning.events.map(\.seq) == Array(1...(total + 2)))
        // The repeat comes after the replay, before or after the live events depending on
        // when the replay caught up; had it overtaken the replay, the replica would have thrown.
        if returning.repeats.isEmpty { _ = try returning.outcome(of: resent.opId) }
        #expect(returning.repeats == [resent], "the first outcome again, after the replay, applied once")
        #expect(try returning.syncCommitted().isEmpty)
        try fixture.expectAgreement([ada, returning])
    }
}
