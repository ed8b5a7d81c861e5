import CorkboardModel
import CorkboardStore
import CorkboardWire
import Foundation
import TestSupport
import Testing

/// An import through one node of a PostgreSQL cluster replaces the board for every node: the
/// members on the others are closed to join again, and rejoin the new board.
@Suite(.threadsOfTheirOwn) struct ClusterArchiveTests {
    @Test(.runningTimeLimit(.minutes(3)))
    func aBoardReplacedThroughOneNodeSendsTheMembersOfEveryNodeToJoinAgain() throws {
        let nodes = try ClusterNode.start(2, databaseURL: try PostgresCluster.shared().createDatabase())
        defer { for node in nodes { node.stop() } }
        let viaA = BoardAPI(port: nodes[0].port)
        let archive = try viaA.get("/api/boards/board/archive?history=true").decode(BoardArchive.self)
        let ada = try BoardTestClient(port: nodes[0].port, board: "board", name: "Ada")
        let bob = try BoardTestClient(port: nodes[1].port, board: "board", name: "Bob")
        try bob.commit(.move(sources: ["i1"], destination: Destination(collection: "done")))

        let replaced = try viaA.send("PUT", "/api/boards/board/archive?replace=true", body: String(decoding: try archive.encoded(), as: UTF8.self))
        #expect(replaced.status == 200, "\(replaced)")
        #expect(try ada.expectClose() == .serviceRestart)
        #expect(try bob.expectClose() == .serviceRestart, "the member on the other node is closed to join again, not told the board is gone")

        // Rejoining node B from the old epoch: the new board's snapshot, at the archive's seq.
        let back = try BoardTestClient(port: nodes[1].port, board: "board", name: "Bob", resume: ResumePoint(epoch: bob.welcome.epoch, seq: bob.seq))
        #expect(!back.welcome.resumed && back.welcome.epoch != bob.welcome.epoch)
        #expect(back.board == archive.board && back.welcome.seq == archive.seq)
    }
}
