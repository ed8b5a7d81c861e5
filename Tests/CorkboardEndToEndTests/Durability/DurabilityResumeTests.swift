import CorkboardModel
import CorkboardWire
import Foundation
import TestSupport
import Testing

/// docs/protocol.md#resume across a restart: a client holding `(epoch, seq)` from before
/// the server stopped resumes on the restarted server and gets exactly the events it missed
/// (among them those committed just before the stop, which it never read), then live ones.
/// The epoch survives a restart, so the resume point stays valid; a crash loses nothing
/// that was acknowledged, so there is no gap to paper over.
@Suite(.threadsOfTheirOwn) struct DurabilityResumeTests {
    /// A label change on i8: always a real commit.
    static func touch(_ round: Int) -> RequestedOperation {
        .updateItem(item: "i8", label: "Eight, round \(round)", data: .unchanged)
    }

    @Test func resumeAfterACleanRestartGetsExactlyTheMissedEvents() throws {
        let host = try RestartableServer()
        try host.start()
        try Self.resumeAcrossARestart(port: host.port) {
            host.stop()
            return try host.start()
        }
    }

    @Test func resumeAfterASIGKILLGetsExactlyTheMissedEvents() throws {
        let data = try TemporaryDirectory("corkboard-resume")
        let webRoot = try durabilityWebRoot()
        let first = try ServedChild(data: data.path, webRoot: webRoot.path)
        var second: ServedChild?
        try Self.resumeAcrossARestart(port: first.port) {
            try first.crash()
            second = try ServedChild(data: data.path, webRoot: webRoot.path)
            return second!.port
        }
        second?.stop()
    }

    /// Bob reads up to seq 1 and then nothing more; Ada commits 2…4; `restart` (which answers
    /// the new port); Bob resumes from (epoch, 1) and must get 2…4 and then a live 5.
    private static func resumeAcrossARestart(port: UInt16, restart: () throws -> UInt16) throws {
        try BoardAPI(port: port).createBoard(HubFixture.standardBoard)
        let ada = try BoardTestClient(port: port, board: "board", name: "Ada")
        let bob = try BoardTestClient(port: port, board: "board", name: "Bob")
        try ada.commit(.move(sources: ["i1"], destination: Destination(collection: "done")))
        try bob.waitUntilSeq(1)

        // Bob stops reading: what follows reaches his socket, never his replica.
        let missed = [
            try ada.commit(.move(sources: ["i2", "i3"], destination: Destination(collection: "done", before: "i6"))),
            try ada.commit(.delete(items: ["i4"])),
            try ada.commit(Self.touch(1)),
        ]
        #expect(missed.map(\.seq) == [2, 3, 4])
        #expect(bob.seq == 1)

        let newPort = try restart()

        let back = try BoardTestClient(port: newPort, board: "board", name: "Bob", resumeFrom: bob)
        #expect(back.welcome.resumed == true, "the resume point (epoch, 1) is still valid after a restart")
        #expect(back.welcome.seq == 1, "seq is the resume point")
        #expect(back.welcome.board == nil, "a resumed welcome has no board")
        #expect(back.welcome.epoch == bob.welcome.epoch)
        // Exactly the missed events, in order, as Ada saw them committed before the restart.
        for event in missed {
            #expect(try back.nextMessage() == .committed(event))
        }
        // Then live traffic.
        let ada2 = try BoardTestClient(port: newPort, board: "board", name: "Ada")
        #expect(ada2.welcome.seq == 4)
        let live = try ada2.commit(Self.touch(2))
        #expect(live.seq == 5)
        #expect(try back.waitFor("the live event") { $0.committedEvent != nil } == .committed(live))
        #expect(try back.syncCommitted().isEmpty, "no event twice")
        #expect(back.events.map(\.seq) == [1, 2, 3, 4, 5])
        #expect(back.board == ada2.board)
        #expect(try BoardAPI(port: newPort).document("board").board == back.board)
        try back.close()
        try ada2.close()
    }
}
