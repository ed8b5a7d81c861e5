import CorkboardHub
import CorkboardModel
import CorkboardWire
import Foundation
import HubTestSupport
import TestSupport
import Testing

/// What the hub does with its members' connections, shown through links in memory: the hello
/// deadline, a replay paced to the reader, and a member dropped at its output bound.
@Suite(.threadsOfTheirOwn) struct HubMemberLinkTests {
    @Test func aConnectionPastTheHelloDeadlineIsRefusedWith1008AndAMemberIsNot() throws {
        let fixture = try HubFixture()
        let ada = try fixture.join("Ada")
        let silent = fixture.connect("Silent")
        silent.helloDeadlinePassed()
        let answer = try decodeServerText(silent.nextText())
        #expect(answer.errorMessage?.code == .invalid, "got \(answer)")
        #expect(answer.errorMessage?.message == "no hello within 10 s")
        #expect(silent.nextClose() == .policyViolation)
        // The deadline means nothing to a session that said hello.
        ada.link.helloDeadlinePassed()
        try ada.commit(.delete(items: ["i1"]))
        #expect(try ada.sync().isEmpty)
        try fixture.expectAgreement([ada])
    }

    @Test func aResumeReplaySendsItsNextPieceOnlyOnceTheMemberDrained() throws {
        let fixture = try HubFixture { $0.replayChunk = 10 }
        let ada = try fixture.join("Ada")
        let bob = try fixture.join("Bob")
        _ = try ada.waitFor(type: "peer.joined")
        bob.drop()
        _ = try ada.waitFor(type: "peer.left")
        for round in 0..<35 {
            try ada.commit(.move(sources: ["i\(round % 8 + 1)"], destination: Destination(collection: round % 2 == 0 ? "todo" : "done")))
        }
        // Bob comes back on a connection whose reader is slow: each piece waits for a drain.
        let link = fixture.connect("Bob again")
        link.stall()
        let hello = Hello(board: "board", name: "Bob", resume: ResumePoint(epoch: bob.welcome.epoch, seq: bob.seq))
        link.receive(String(decoding: try WireFormat.encode(ClientMessage.hello(hello)), as: UTF8.self))
        guard case .welcome(let welcome) = try decodeServerText(link.nextText()) else {
            Issue.record("the first message is not the welcome")
            return
        }
        #expect(welcome.resumed)
        var replayed: [Int] = []
        for piece in [10, 10, 10, 5] {
            for _ in 0..<piece {
                guard let event = try decodeServerText(link.nextText()).committedEvent else { break }
                replayed.append(event.seq)
            }
            // Nothing more comes until the reader drained (the last piece turns Bob live).
            if piece == 10 {
                #expect(eventually { link.hasDrainWaiters }, "the replay waits for a drain after \(replayed.count) events")
                #expect(link.unreadOutput().isEmpty, "sent past a piece of 10 before a drain")
            }
            link.drain()
        }
        #expect(replayed == Array(1...35))
        // Live now: the next commit comes straight away.
        link.keepUp()
        let event = try ada.commit(.delete(items: ["i8"]))
        #expect(try decodeServerText(link.nextText()) == .committed(event))
    }

    @Test func aMemberThatStopsReadingIsDroppedAtItsBoundWhileTheOthersGoOn() throws {
        let fixture = try HubFixture()
        let ada = try fixture.join("Ada")
        let sloth = try fixture.join("Sloth", outputBound: 16 * 1024)
        _ = try ada.waitFor(type: "peer.joined")
        sloth.link.stall()
        // Cards with 2 KiB labels: the sloth's 16 KiB bound is passed within a few.
        let label = String(repeating: "slow consumer ", count: 2048 / 14)
        // The drop is the link's, at the broadcast that passes the bound; that the others are
        // told (peer.left, on the next membership tick) is awaited after, not raced.
        var slothOutput: [MemoryLink.Output] = []
        var inserted = 0
        while inserted < 100 && slothOutput.last != .dropped {
            try ada.commit(.insert(items: [Item(id: "big-\(inserted)", label: label)], destination: Destination(collection: "done")))
            inserted += 1
            slothOutput += sloth.link.unreadOutput()
        }
        #expect(slothOutput.last == .dropped, "the sloth was still a member after \(inserted) inserts")
        #expect(inserted < 20)
        // Told perhaps while Ada's commits waited for their answers (then it is in her log already).
        let slothLeaving: (ServerMessage) -> Bool = { message in
            switch message {
            case .peerLeft(let client): client == sloth.clientID
            case .peers(let change): change.left.contains(sloth.clientID)
            default: false
            }
        }
        if !ada.log.contains(where: slothLeaving) { _ = try ada.waitFor("the sloth leaving", slothLeaving) }
        try fixture.expectAgreement([ada])

        // It can resume from where its replica was, and gets exactly what it missed.
        let back = try fixture.join("Sloth", resumeFrom: sloth)
        #expect(back.welcome.resumed)
        try fixture.expectAgreement([ada, back])
    }
}
