import CorkboardModel
import CorkboardWire
import Foundation
import Testing
import TestSupport

/// Spec §3: `hello` with `resume` gets the missed events, none skipped, none repeated; a
/// resume point the server cannot serve gets a full snapshot.
@Suite struct HubResumeTests {
    /// A label change on i8: always a real commit, whatever the board looks like.
    static func touch(_ round: Int) -> RequestedOperation {
        .updateItem(item: "i8", label: "Eight, round \(round)", data: .unchanged)
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
        #expect(try back.sync().isEmpty)
        try fixture.expectAgreement([back])
    }

    enum StaleResume: String, Sendable, CaseIterable, CustomStringConvertible {
        case wrongEpoch, seqAboveTheCurrentSeq, seqOlderThanTheKeptHistory
        var description: String { rawValue }
    }

    @Test(arguments: StaleResume.allCases)
    func aResumePointTheServerCannotServeGetsAFullSnapshot(_ stale: StaleResume) throws {
        let fixture = try HubFixture { $0.historyCapacity = 5 }
        let ada = try fixture.join("Ada")
        for round in 0..<10 { try ada.commit(Self.touch(round)) }
        let epoch = ada.welcome.epoch
        let point = switch stale {
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
        let client = try WebSocketTestClient(port: fixture.port)
        try client.send(text: String(decoding: try WireFormat.encode(ClientMessage.hello(Hello(board: "board", name: "Bob", resume: point))), as: UTF8.self))
        guard case .welcome(let welcome) = try decodeServerText(try client.receiveText()) else {
            Issue.record("no welcome")
            return
        }
        #expect(welcome.resumed == true)
        #expect(welcome.seq == 7)
        #expect(try decodeServerText(try client.receiveText()).committedEvent == ada.events[7])
        #expect(try decodeServerText(try client.receiveText()).committedEvent == ada.events[8])
        #expect(try decodeServerText(try client.receiveText()).committedEvent == ada.events[9])
    }
}
