import CorkboardHub
import CorkboardModel
import CorkboardWire
import Foundation
import TestSupport
import Testing

/// docs/protocol.md#resume: `hello` with `resume` gets the missed events, none skipped, none repeated; a
/// resume point the server cannot serve gets a full snapshot. Over both harnesses, and a long
/// replay through a slow socket over sockets only.
@Suite(.threadsOfTheirOwn) struct HubResumeTests {
    /// A label change on i8: always a real commit, whatever the board looks like.
    static func touch(_ round: Int) -> RequestedOperation {
        .updateItem(item: "i8", label: "Eight, round \(round)", data: .unchanged)
    }

    enum StaleResume: String, Sendable, CaseIterable, CustomStringConvertible {
        case wrongEpoch, seqAboveTheCurrentSeq, seqOlderThanTheKeptHistory
        var description: String { rawValue }
    }

    /// Commits `count` real changes from `client`, pipelined: i1 travels between the ends of the two collections.
    static func commitMany(_ count: Int, from client: BoardTestClient) throws {
        let start = client.seq
        for index in 0..<count {
            try client.send(.move(sources: ["i1"], destination: Destination(collection: index % 2 == 0 ? "done" : "todo")), baseSeq: 0)
        }
        try client.waitUntilSeq(start + count)
    }

    @Test(arguments: HubHarness.allCases)
    func resumeAfterADroppedConnectionGetsExactlyTheMissedEventsThenLiveOnes(_ harness: HubHarness) throws {
        let hub = try harness.start()
        let ada = try hub.join("Ada")
        let bob = try hub.join("Bob")
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

        let back = try hub.join("Bob", resumeFrom: bob)
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
        try hub.expectAgreement([ada, back])
    }

    @Test(arguments: HubHarness.allCases)
    func resumeWhileOthersKeepCommittingSkipsAndRepeatsNothing(_ harness: HubHarness) throws {
        let hub = try harness.start()
        defer { withExtendedLifetime(hub) {} }
        let ada = try hub.join("Ada")
        let bob = try hub.join("Bob")
        let failures = Locked<[String]>([])
        let writing = DispatchGroup()
        writing.enter()
        // Ada commits 60 events back to back on her own thread.
        Thread {
            defer { writing.leave() }
            do {
                for round in 0..<60 { try ada.commit(Self.touch(round)) }
            } catch {
                failures.withLock { $0.append("\(error)") }
            }
        }.start()
        // Bob drops and resumes twice while that goes on; every replica step is checked by `Replica.apply`,
        // which throws on a gap or a repeat.
        var current = bob
        for _ in 0..<2 {
            try current.waitUntilSeq(current.seq + 5)
            current.drop()
            let back = try hub.join("Bob", resumeFrom: current)
            #expect(back.welcome.resumed == true)
            #expect(back.welcome.seq == current.seq)
            current = back
        }
        #expect(writing.wait(timeout: .now() + 30) == .success)
        #expect(failures.withLock { $0 }.isEmpty)
        try hub.expectAgreement([ada, current])
        #expect(current.events.map(\.seq) == Array(1...60))
        #expect(current.events == ada.events)
        #expect(try current.syncCommitted().isEmpty)
    }

    @Test(arguments: HubHarness.allCases)
    func resumeAtTheCurrentSeqGetsNoEvents(_ harness: HubHarness) throws {
        let hub = try harness.start()
        let ada = try hub.join("Ada")
        try ada.commit(Self.touch(1))
        try ada.commit(Self.touch(2))
        try ada.close()
        let back = try hub.join("Ada", resumeFrom: ada)
        #expect(back.welcome.resumed == true)
        #expect(back.welcome.seq == 2)
        // Events only: the first connection's peer.left may still be on its way.
        #expect(try back.syncCommitted().isEmpty)
        try hub.expectAgreement([back])
    }

    @Test(arguments: HubHarness.allCases, StaleResume.allCases)
    func aResumePointTheServerCannotServeGetsAFullSnapshot(_ harness: HubHarness, _ stale: StaleResume) throws {
        let hub = try harness.start { $0.historyCapacity = 5 }
        let ada = try hub.join("Ada")
        for round in 0..<10 { try ada.commit(Self.touch(round)) }
        let epoch = ada.welcome.epoch
        let point =
            switch stale {
            case .wrongEpoch: ResumePoint(epoch: epoch + "-other", seq: 8)
            case .seqAboveTheCurrentSeq: ResumePoint(epoch: epoch, seq: 11)
            case .seqOlderThanTheKeptHistory: ResumePoint(epoch: epoch, seq: 1)
            }
        let back = try hub.join("Bob", resume: point)
        #expect(back.welcome.resumed == false)
        #expect(back.welcome.seq == 10, "seq is the snapshot's")
        #expect(back.welcome.epoch == epoch)
        #expect(back.welcome.board == (try hub.document().board))
        #expect(try back.syncCommitted().isEmpty, "no events follow a snapshot")
        // And it goes on from there.
        try ada.commit(Self.touch(11))
        try hub.expectAgreement([ada, back])
    }

    @Test(arguments: HubHarness.allCases)
    func resumeWithinASmallHistoryStillWorks(_ harness: HubHarness) throws {
        let hub = try harness.start { $0.historyCapacity = 5 }
        defer { withExtendedLifetime(hub) {} }
        let ada = try hub.join("Ada")
        for round in 0..<10 { try ada.commit(Self.touch(round)) }
        // Events 6…10 are kept: a resume from 5 needs only those.
        let point = ResumePoint(epoch: ada.welcome.epoch, seq: 7)
        let client = try hub.newConnection("Bob")
        try client.send(.hello(Hello(board: "board", name: "Bob", resume: point)))
        guard case .welcome(let welcome) = try client.receiveMessage() else { throw HubTestFailure("no welcome") }
        #expect(welcome.resumed == true)
        #expect(welcome.seq == 7)
        #expect(try client.receiveMessage().committedEvent == ada.events[7])
        #expect(try client.receiveMessage().committedEvent == ada.events[8])
        #expect(try client.receiveMessage().committedEvent == ada.events[9])
    }

    @Test(arguments: HubHarness.allCases)
    func resendingAnUnansweredOpAfterResumeGetsItsEventOnceMore(_ harness: HubHarness) throws {
        let hub = try harness.start()
        let ada = try hub.join("Ada")
        let bob = try hub.join("Bob")
        _ = try ada.waitFor(type: "peer.joined")
        // Bob sends a move and loses the connection before he reads the answer.
        let request = bob.request(.move(sources: ["i2"], destination: Destination(collection: "done")))
        try bob.send(.operation(request))
        let event = try #require(try ada.waitFor(type: "committed").committedEvent)
        #expect(event.opId == request.opId)
        bob.drop()
        let other = try ada.commit(Self.touch(1))

        let back = try hub.join("Bob", resumeFrom: bob)
        #expect(back.welcome.resumed)
        #expect(back.welcome.seq == 0)
        back.expectRepeat(of: request.opId)
        try back.send(.operation(request))
        // The replay (Bob's own event, then Ada's), then the answer to the resend: the first outcome again.
        #expect(try back.nextMessage() == .committed(event))
        #expect(try back.nextMessage() == .committed(other))
        #expect(try back.nextMessage() == .committed(event))
        #expect(back.repeats == [event])
        #expect(try ada.syncCommitted().isEmpty, "the repeat goes to the sender alone")
        #expect(try hub.expectAgreement([ada, back]).seq == 2)
    }

    @Test(arguments: HubHarness.allCases)
    func anOperationSentDuringALongReplayIsAnsweredAfterTheReplay(_ harness: HubHarness) throws {
        let hub = try harness.start()
        let ada = try hub.join("Ada")
        let bob = try hub.join("Bob")
        _ = try ada.waitFor(type: "peer.joined")
        // Bob stops reading; 1,200 events pile up for him; then his move commits and he drops.
        let total = 1_200
        try Self.commitMany(total, from: ada)
        let request = bob.request(.move(sources: ["i2"], destination: Destination(collection: "done")), baseSeq: 0)
        try bob.send(.operation(request))
        let event = try #require(try ada.outcome(of: request.opId).committedEvent)
        #expect(event.seq == total + 1)
        bob.drop()
        // Once the old connection is gone on the server, its peer.left cannot reach the returning Bob.
        _ = try ada.waitFor(type: "peer.left")

        // Back from seq 0: the replay spans several pieces. He resends his move at once, and a
        // noop too; their answers must not overtake the replay (docs/protocol.md#resume: the missed events, then live traffic).
        let back = try hub.join("Bob", resumeFrom: bob)
        #expect(back.welcome.resumed)
        back.expectRepeat(of: request.opId)
        try back.send(.operation(request))
        let noop = back.request(.move(sources: ["i6"], destination: Destination(collection: "done", before: "i7")))
        try back.send(.operation(noop))
        try back.waitUntilSeq(total + 1)
        #expect(back.skipped.isEmpty, "nothing in the middle of the replay: \(back.skipped.prefix(3))")
        #expect(try back.nextMessage() == .committed(event))
        #expect(try back.nextMessage() == .noop(Noop(opId: noop.opId, seq: total + 1)))
        #expect(back.events.map(\.seq) == Array(1...(total + 1)))
        try hub.expectAgreement([ada, back])
    }

    @Test(arguments: HubHarness.allCases)
    func presenceDoesNotInterruptALongReplay(_ harness: HubHarness) throws {
        let hub = try harness.start()
        defer { withExtendedLifetime(hub) {} }
        let ada = try hub.join("Ada")
        let bob = try hub.join("Bob")
        _ = try ada.waitFor(type: "peer.joined")
        bob.drop()
        // Once the old connection is gone on the server, its peer.left cannot reach the returning Bob.
        _ = try ada.waitFor(type: "peer.left")
        let total = 1_200
        try Self.commitMany(total, from: ada)

        let back = try hub.join("Bob", resumeFrom: bob)
        #expect(back.welcome.resumed)
        // Cy comes and Ada goes while Bob's replay is under way.
        let cy = try hub.join("Cy")
        try ada.close()
        try back.waitUntilSeq(total)
        #expect(back.skipped.isEmpty, "no presence in the middle of the replay: \(back.skipped.prefix(3))")
        var presence = back.skipped
        while presence.count < 2 { presence.append(try back.nextMessage()) }
        #expect(presence == [.peerJoined(client: cy.clientID, name: "Cy"), .peerLeft(client: ada.clientID)])
    }

    // MARK: Over sockets only: a slow socket

    /// A replay of several pieces (512 events each; each waits until the socket has written
    /// the last) while live events keep arriving: every missed event exactly once, in order,
    /// then live traffic. Socket only: a small receive buffer makes the pieces wait for the
    /// socket (in memory a stalled `MemoryLink` shows the pacing: HubMemberLinkTests).
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
