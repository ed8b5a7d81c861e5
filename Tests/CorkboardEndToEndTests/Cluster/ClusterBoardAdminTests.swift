import CorkboardModel
import CorkboardWire
import Foundation
import TestSupport
import Testing

/// Renaming and deleting a board on a cluster of nodes sharing one PostgreSQL database
/// (docs/protocol.md#8-http-api, docs/storage.md "Several nodes"): the rename is a committed
/// operation and reaches the members on every node; the delete, served by one node, sends the
/// board's members on every node away (`error gone`, close 1008) and unloads it there.
@Suite(.threadsOfTheirOwn) struct ClusterBoardAdminTests {
    @Test(.runningTimeLimit(.minutes(3)))
    func aRenameAndADeleteOnOneNodeReachTheMembersOfAnother() async throws {
        try await offPool {
            let nodes = try ClusterNode.start(2, databaseURL: try PostgresCluster.shared().createDatabase())
            let (first, second) = (BoardAPI(port: nodes[0].port), BoardAPI(port: nodes[1].port))
            let ada = try BoardTestClient(port: nodes[0].port, board: "board", name: "Ada")
            let bob = try BoardTestClient(port: nodes[1].port, board: "board", name: "Bob")

            let renamed = try first.send("PATCH", "/api/boards/board", body: #"{"title":"Across"}"#)
            #expect(renamed.status == 200, "\(renamed)")
            let seq = try renamed.decode(BoardSummary.self).seq
            try bob.waitUntilSeq(seq)
            #expect(bob.board.title == "Across" && bob.events.last?.op == .renameBoard(title: "Across"))
            #expect(try second.get("/api/boards").decode(BoardList.self).boards.first { $0.id == "board" }?.title == "Across")
            #expect(try nodes[1].document().board.title == "Across")

            let deleted = try first.delete("/api/boards/board")
            #expect(deleted.status == 204, "\(deleted)")
            for member in [ada, bob] {
                #expect(try member.expectClose() == .policyViolation, "\(member.name)")
                #expect(member.log.last?.errorMessage == ErrorMessage(code: .gone, message: "the board was deleted"), "\(member.name)")
            }
            // The other node unloaded it: it finds no board, for reads and joins alike.
            #expect(try second.get("/api/boards/board").status == 404)
            #expect(throws: (any Error).self) { try BoardTestClient(port: nodes[1].port, board: "board", name: "Late") }

            // Created anew through the second node, the board is a new life (seq 0) on both,
            // and a member of it is not sent away by anything the old one left behind.
            try second.createBoard(HubFixture.standardBoard)
            let carl = try BoardTestClient(port: nodes[0].port, board: "board", name: "Carl")
            #expect(carl.welcome.seq == 0 && carl.board.title == HubFixture.standardBoard.title)
            _ = try carl.commit(.renameBoard(title: "Second life"))
            #expect(try second.get("/api/boards").decode(BoardList.self).boards.first { $0.id == "board" }?.title == "Second life")
        }
    }
}
