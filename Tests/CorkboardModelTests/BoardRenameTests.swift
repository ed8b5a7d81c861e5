import CorkboardModel
import Testing

/// The board's own title as an operation (docs/protocol.md#4-operations): an `update` naming
/// neither an item nor a collection, an owner's act, refused on a locked board like every
/// operation but `lock`, its title held to the text limit, and applied by replicas.
@Suite struct BoardRenameTests {
    @Test func anOwnerRenamesTheBoardAndTheEventSaysSo() throws {
        var engine = try makeEngine("todo: a")
        let event = try #require(engine.apply(OperationRequest(opId: "r1", .renameBoard(title: "Sprint 13")), client: "c1", role: .owner).event)
        #expect(event.op == .renameBoard(title: "Sprint 13"))
        #expect(!event.adjusted)
        #expect(engine.board.title == "Sprint 13")
        // The same title again still commits (a rename is never a noop, like a lock).
        #expect(engine.apply(OperationRequest(opId: "r2", .renameBoard(title: "Sprint 13")), client: "c1", role: .owner).event?.seq == 2)
    }

    @Test func editorsAndViewersMayNotRenameTheBoard() throws {
        var engine = try makeEngine("todo: a")
        for role in [Role.editor, .viewer] {
            let outcome = engine.apply(OperationRequest(opId: "r-\(role)", .renameBoard(title: "Mine")), client: "c1", role: role)
            #expect(outcome.rejectionCode == .forbidden, "\(role)")
        }
        #expect(
            engine.apply(OperationRequest(opId: "r-again", .renameBoard(title: "Mine")), client: "c1", role: .editor).rejection?.message
                == "only an owner may rename a board")
        #expect(engine.board.title != "Mine" && engine.seq == 0)
    }

    @Test func aLockedBoardKeepsItsTitleUntilUnlocked() throws {
        var engine = try makeEngine("todo: a", locked: true)
        #expect(engine.apply(OperationRequest(opId: "r1", .renameBoard(title: "New")), client: "c1", role: .owner).rejectionCode == .locked)
        _ = engine.apply(OperationRequest(opId: "u", .lock(locked: false)), client: "c1", role: .owner)
        #expect(engine.apply(OperationRequest(opId: "r2", .renameBoard(title: "New")), client: "c1", role: .owner).event != nil)
    }

    @Test func aTitleOverTheTextLimitIsInvalidAndOneAtItCommits() throws {
        var engine = try makeEngine("todo: a")
        let tooLong = String(repeating: "é", count: Limits.maximumTextBytes / 2 + 1)
        #expect(engine.apply(OperationRequest(opId: "r1", .renameBoard(title: tooLong)), client: "c1", role: .owner).rejectionCode == .invalid)
        let atLimit = String(repeating: "x", count: Limits.maximumTextBytes)
        #expect(engine.apply(OperationRequest(opId: "r2", .renameBoard(title: atLimit)), client: "c1", role: .owner).event != nil)
        #expect(engine.board.title == atLimit)
    }

    @Test func aReplicaFollowsTheRename() throws {
        var engine = try makeEngine("todo: a")
        var replica = Replica(board: engine.board, seq: engine.seq)
        let event = try #require(engine.apply(OperationRequest(opId: "r1", .renameBoard(title: "Q3")), client: "c1", role: .owner).event)
        try replica.apply(event)
        #expect(replica.board == engine.board)
        #expect(replica.board.title == "Q3")
    }
}
