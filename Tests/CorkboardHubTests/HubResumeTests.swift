import CorkboardHub
import CorkboardModel
import CorkboardWire
import Foundation
import HubTestSupport
import TestSupport
import Testing

/// docs/protocol.md#resume: `hello` with `resume` gets the missed events, none skipped, none repeated; a
/// resume point the server cannot serve gets a full snapshot.
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

    @Test func resumeWhileOthersKeepCommittingSkipsAndRepeatsNothing() throws {
        let fixture = try HubFixture()
        let ada = try fixture.join("Ada")
        let bob = try fixture.join("Bob")
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
            let back = try fixture.join("Bob", resumeFrom: current)
            #expect(back.welcome.resumed == true)
            #expect(back.welcome.seq == current.seq)
            current = back
        }
        #expect(writing.wait(timeout: .now() + 30) == .success)
        #expect(failures.withLock { $0 }.isEmpty)
        try fixture.expectAgreement([ada, current])
        #expect(current.events.map(\.seq) == Array(1...60))
        #expect(current.events == ada.events)
        #expect(try current.syncCommitted().isEmpty)
    }

    @Test func resumeAtTheCurrentSeqGetsNoEvents() throws {
        let fixture = try HubFixture()
        let ada = try fixture.join("Ada")
        try ada.commit(Self.touch(1))
        try ada.commit(Self.touch(2))
        try ada.close()
        let back = try fixture.join("Ada", resumeFrom: ada)
        #expect(back.welcome.resumed == true)
        #expect(back.welcome.seq == 2)
        // Events only: the first connection's peer.left may still be on its way.
        #expect(try back.syncCommitted().isEmpty)
        try fixture.expectAgreement([back])
    }

    @Test(arguments: StaleResume.allCases)
    func aResumePointTheServerCannotServeGetsAFullSnapshot(_ stale: StaleResume) throws {
        let fixture = try HubFixture { $0.historyCapacity = 5 }
        let ada = try fixture.join("Ada")
        for round in 0..<10 { try ada.commit(Self.touch(round)) }
        let epoch = ada.welcome.epoch
        let point =
            switch stale {
            case .wrongEpoch: ResumePoint(epoch: epoch + "-other", seq: 8)
            case .seqAboveTheCurrentSeq: ResumePoint(epoch: epoch, seq: 11)
            case .seqOlderThanTheKeptHistory: ResumePoint(epoch: epoch, seq: 1)
            }
        let back = try fixture.join("Bob", resume: point)
        #expect(back.welcome.resumed == false)
        #expect(back.welcome.seq == 10, "seq is the snapshot's")
        #expect(back.welcome.epoch == epoch)
        #expect(back.welcome.board == (try fixture.document().board))
        #expect(try back.syncCommitted().isEmpty, "no events follow a snapshot")
        // And it goes on from there.
        try ada.commit(Self.touch(11))
        try fixture.expectAgreement([ada, back])
    }

    @Test func resumeWithinASmallHistoryStillWorks() throws {
        let fixture = try HubFixture { $0.historyCapacity = 5 }
        let ada = try fixture.join("Ada")
        for round in 0..<10 { try ada.commit(Self.touch(round)) }
        // Events 6…10 are kept: a resume from 5 needs only those.
        let point = ResumePoint(epoch: ada.welcome.epoch, seq: 7)
        let client = fixture.connect()
        client.receive(String(decoding: try WireFormat.encode(ClientMessage.hello(Hello(board: "board", name: "Bob", resume: point))), as: UTF8.self))
        guard case .welcome(let welcome) = try decodeServerText(client.nextText()) else {
            Issue.record("no welcome")
            return
        }
        #expect(welcome.resumed == true)
        #expect(welcome.seq == 7)
        #expect(try decodeServerText(client.nextText()).committedEvent == ada.events[7])
        #expect(try decodeServerText(client.nextText()).committedEvent == ada.events[8])
        #expect(try decodeServerText(client.nextText()).committedEvent == ada.events[9])
    }

    @Test func resendingAnUnansweredOpAfterResumeGetsItsEventOnceMore() throws {
        let fixture = try HubFixture()
        let ada = try fixture.join("Ada")
        let bob = try fixture.join("Bob")
        _ = try ada.waitFor(type: "peer.joined")
        // Bob sends a move and loses the connection before he reads the answer.
        let request = bob.request(.move(sources: ["i2"], destination: Destination(collection: "done")))
        try bob.send(.operation(request))
        let event = try #require(try ada.waitFor(type: "committed").committedEvent)
        #expect(event.opId == request.opId)
        bob.drop()
        let other = try ada.commit(Self.touch(1))

        let back = try fixture.join("Bob", resumeFrom: bob)
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
        #expect(try fixture.expectAgreement([ada, back]).seq == 2)
    }

    @Test func anOperationSentDuringALongReplayIsAnsweredAfterTheReplay() throws {
        let fixture = try HubFixture()
        let ada = try fixture.join("Ada")
        let bob = try fixture.join("Bob")
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
        let back = try fixture.join("Bob", resumeFrom: bob)
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
        try fixture.expectAgreement([ada, back])
    }

    @Test func presenceDoesNotInterruptALongReplay() throws {
        let fixture = try HubFixture()
        let ada = try fixture.join("Ada")
        let bob = try fixture.join("Bob")
        _ = try ada.waitFor(type: "peer.joined")
        bob.drop()
        // Once the old connection is gone on the server, its peer.left cannot reach the returning Bob.
        _ = try ada.waitFor(type: "peer.left")
        let total = 1_200
        try Self.commitMany(total, from: ada)

        let back = try fixture.join("Bob", resumeFrom: bob)
        #expect(back.welcome.resumed)
        // Cy comes and Ada goes while Bob's replay is under way.
        let cy = try fixture.join("Cy")
        try ada.close()
        try back.waitUntilSeq(total)
        #expect(back.skipped.isEmpty, "no presence in the middle of the replay: \(back.skipped.prefix(3))")
        var presence = back.skipped
        while presence.count < 2 { presence.append(try back.nextMessage()) }
        #expect(presence == [.peerJoined(client: cy.clientID, name: "Cy"), .peerLeft(client: ada.clientID)])
    }
}
