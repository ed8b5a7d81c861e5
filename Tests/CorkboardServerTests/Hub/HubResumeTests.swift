import CorkboardModel
import CorkboardWire
import Foundation
import TestSupport
import Testing

/// docs/protocol.md#resume end to end: `hello` with `resume` on a new socket gets the missed events, none
/// skipped, none repeated, in pieces a slow socket can take (the rest of resume is tested
/// in-process: CorkboardHubTests' HubResumeTests).
@Suite(.threadsOfTheirOwn) struct HubResumeTests {
    /// A label change on i8: always a real commit, whatever the board looks like.
    static func touch(_ round: Int) -> RequestedOperation {
        .updateItem(item: "i8", label: "Eight, round \(round)", data: .unchanged)
    }

    /// Commits `count` real changes from `client`, pipelined: i1 travels between the ends of the two collections.
    static func commitMany(_ count: Int, from client: BoardTestClient) throws {
        let start = client.seq
        for index in 0..<count {
            try client.send(.move(sources: ["i1"], destination: Destination(collection: index % 2 == 0 ? "done" : "todo")), baseSeq: 0)
        }
        try client.waitUntilSeq(start + count)
    }

    @Test func resumeAfterADroppedConnectionGetsExactlyTheMissedEventsThenLiveOnes() throws {
        let fixture = try HubFixture()
        let ada = try fixture.join("Ada")
        let bob = try fixture.join("Bob")
        try ada.commit(.move(sources: ["i1"], destination: Destination(collection: "done")))
        try bob.waitUntilSeq(1)
        bob.drop()

        // While Bob is away: three events.
        let missed = [
            try ada.commit(.move(sources: ["i2", "i3"], destination: Destination(collection: "done", before: "i6"))),
            try ada.commit(.delete(items: ["i4"])),
            try ada.commit(Self.touch(1)),
        ]
        #expect(missed.map(\.seq) == [2, 3, 4])

        let back = try fixture.join("Bob", resumeFrom: bob)
        #expect(back.welcome.resumed == true)
        #expect(back.welcome.seq == 1, "seq is the resume point")
        #expect(back.welcome.board == nil, "a resumed welcome has no board")
        #expect(back.welcome.epoch == bob.welcome.epoch)
        #expect(back.welcome.peers.contains { $0.client == ada.clientID })
        // Then exactly the missed events, in order.
        for event in missed {
            #expect(try back.nextMessage() == .committed(event))
        }
        // Then live traffic.
        let live = try ada.commit(Self.touch(2))
        #expect(try back.nextMessage() == .committed(live))
        #expect(try back.syncCommitted().isEmpty, "no event twice")
        #expect(back.events.map(\.seq) == [1, 2, 3, 4, 5])
        try fixture.expectAgreement([ada, back])
    }

    /// A replay of several pieces (512 events each; each waits until the socket has written
    /// the last) while live events keep arriving: every missed event exactly once, in order,
    /// then live traffic.
    @Test func aLongReplayArrivesInPiecesWithoutGapsOrRepeats() throws {
        let fixture = try HubFixture()
        let ada = try fixture.join("Ada")
        let bob = try fixture.join("Bob")
        _ = try ada.waitFor(type: "peer.joined")
        bob.drop()

        let total = 1_500
        try Self.commitMany(total, from: ada)

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
