import CorkboardModel
import Foundation
import Testing

/// Folders (docs/model.md "Folders", docs/protocol.md#5-resolution): moves and inserts into
/// them, the rules that keep a folder out of itself and items within 16 levels, `accepts`,
/// deletes that take the contents along, and leases that cover what a folder holds.
@Suite struct FolderTests {
    @Test func cardsMoveIntoAFolderAndOutAgain() throws {
        var engine = try makeEngine("todo: a f/ b; done: x; /f: c")
        #expect(engine.apply(move("m1", base: 0, ["a", "x"], to: "f", before: "c"), client: "c1", role: .editor).event != nil)
        #expect(engine.layoutText == "todo: f/ b; done:; /f: a x c")
        #expect(engine.apply(move("m2", base: 1, ["c"], to: "done"), client: "c1", role: .editor).event != nil)
        #expect(engine.layoutText == "todo: f/ b; done: c; /f: a x")
        // An insert into a folder, and a folder inserted into a folder (empty).
        let folder = OperationRequest(
            opId: "i1", baseSeq: 2, .insert(items: [Item(id: "g", label: "G", folder: Folder())], destination: Destination(collection: "f")))
        #expect(engine.apply(folder, client: "c1", role: .editor).event != nil)
        #expect(engine.apply(insert("i2", base: 3, ["n"], to: "g"), client: "c1", role: .editor).event != nil)
        #expect(engine.layoutText == "todo: f/ b; done: c; /f: a x g/; /g: n")
    }

    @Test func aFolderMovesWithWhatItHolds() throws {
        var engine = try makeEngine("todo: f/ b; done: g/; /f: c h/; /g:; /h: d")
        #expect(engine.apply(move("m", base: 0, ["f"], to: "g"), client: "c1", role: .editor).event != nil)
        #expect(engine.layoutText == "todo: b; done: g/; /f: c h/; /g: f/; /h: d")
        #expect(engine.board.validationProblems().isEmpty)
    }

    /// Into itself, or into any folder inside it, also when the other move that made it so
    /// was resolved first: the one resolved second is refused.
    @Test func aFolderNeverGoesInsideItself() throws {
        var engine = try makeEngine("todo: f/ g/; /f: h/; /g:; /h:")
        for (opId, target) in [("self", "f"), ("child", "h")] {
            let outcome = engine.apply(move(opId, base: 0, ["f"], to: target), client: "c1", role: .editor)
            #expect(outcome.rejectionCode == .invalid, "\(opId)")
            #expect(outcome.rejection?.message == "folder f cannot go inside itself")
        }
        // Two people at seq 0: one puts g into f, the other f into g.
        #expect(engine.apply(move("g-into-f", base: 0, ["g"], to: "f"), client: "c1", role: .editor).event != nil)
        #expect(engine.apply(move("f-into-g", base: 0, ["f"], to: "g"), client: "c2", role: .editor).rejectionCode == .invalid)
        #expect(engine.layoutText == "todo: f/; /f: h/ g/; /g:; /h:")
    }

    @Test func aFolderThatDoesNotAcceptDropsRefusesNewItemsButReordersItsOwn() throws {
        var engine = try makeEngine("todo: a f/!; /f: c d")
        let refused = engine.apply(move("in", base: 0, ["a"], to: "f"), client: "c1", role: .editor)
        #expect(refused.rejection?.code == .invalid)
        #expect(refused.rejection?.message == "folder f does not accept drops")
        #expect(engine.apply(insert("new", base: 0, ["n"], to: "f"), client: "c1", role: .editor).rejectionCode == .invalid)
        #expect(engine.apply(move("reorder", base: 0, ["d"], to: "f", before: "c"), client: "c1", role: .editor).event != nil)
        // `accepts` is switched with an update of its own, and only a folder has it.
        let accept = OperationRequest(opId: "on", baseSeq: 1, .updateFolder(item: "f", accepts: true))
        #expect(engine.apply(accept, client: "c1", role: .editor).event?.op == .updateFolder(item: "f", accepts: true))
        // (A refusal is remembered by opId: a new attempt is a new opId.)
        #expect(engine.apply(move("in again", base: 2, ["a"], to: "f"), client: "c1", role: .editor).event != nil)
        let onACard = OperationRequest(opId: "card", baseSeq: 3, .updateFolder(item: "a", accepts: false))
        #expect(engine.apply(onACard, client: "c1", role: .editor).rejection?.message == "item a is not a folder")
        let onAViewer = OperationRequest(opId: "viewer", baseSeq: 3, .updateFolder(item: "f", accepts: false))
        #expect(engine.apply(onAViewer, client: "c9", role: .viewer).rejectionCode == .forbidden)
    }

    /// One event deletes the folder and everything in it; a move into it resolved after is
    /// `gone`, and the history still puts it all back.
    @Test func deletingAFolderDeletesWhatIsInsideIt() throws {
        var engine = try makeEngine("todo: a f/; done: x; /f: c g/; /g: d")
        let before = engine.board
        let event = try #require(engine.apply(delete("d", base: 0, ["f"]), client: "c1", role: .editor).event)
        #expect(event.op == .delete(items: ["f"]))
        #expect(engine.layoutText == "todo: a; done: x")
        #expect(!engine.contains("d"))
        let late = engine.apply(move("m", base: 0, ["x"], to: "g"), client: "c2", role: .editor)
        #expect(late.rejectionCode == .gone)
        #expect(engine.board(asOf: 0) == before)
        try engine.revert(after: 0)
        #expect(engine.board == before)
    }

    @Test func aLeaseOnAFolderCoversWhatItHolds() throws {
        var engine = try makeEngine("todo: a f/; /f: c g/; /g: d")
        let onTheFolder = LeaseTable(holders: ["f": "c2"])
        let busy = engine.apply(move("m1", base: 0, ["d"], to: "todo"), client: "c1", role: .editor, leases: onTheFolder)
        #expect(busy.rejection?.message == "item d is being dragged by c2")
        #expect(engine.otherHolder(of: ["d"], for: "c1", in: onTheFolder) == "c2")
        #expect(engine.otherHolder(of: ["d"], for: "c2", in: onTheFolder) == nil)
        // Moving a folder while someone drags something inside it is busy too.
        let inside = LeaseTable(holders: ["d": "c2"])
        #expect(engine.apply(move("m2", base: 0, ["f"], to: "todo", before: "a"), client: "c1", role: .editor, leases: inside).rejectionCode == .busy)
        #expect(engine.otherHolder(of: ["f"], for: "c1", in: inside) == "c2")
        // A delete wins, and names the drags inside for clearing.
        guard case .committed(let commit) = engine.apply(delete("d", base: 0, ["f"]), client: "c1", role: .editor, leases: inside) else {
            Issue.record("the delete did not commit")
            return
        }
        #expect(commit.leaseHits == [LeaseHit(item: "d", holder: "c2")])
    }

    @Test func foldersNestAtMostSixteenLevels() throws {
        // f1 holds f2 … f15 holds f16: items in f15 sit at level 16, the last allowed.
        let chain = (1...15).map { "/f\($0): f\($0 + 1)/" }.joined(separator: "; ")
        var engine = try makeEngine("todo: f1/ a g/; \(chain); /f16:; /g: h/; /h:")
        #expect(engine.apply(move("ok", base: 0, ["a"], to: "f15"), client: "c1", role: .editor).event != nil)
        let tooDeep = engine.apply(move("deep", base: 1, ["a"], to: "f16"), client: "c1", role: .editor)
        #expect(tooDeep.rejection?.message == "items would sit 17 levels deep; folders nest at most 16 levels")
        // A folder counts what it holds: g (with h in it) fits in f14, not in f15.
        #expect(engine.apply(move("g15", base: 1, ["g"], to: "f15"), client: "c1", role: .editor).rejectionCode == .invalid)
        #expect(engine.apply(move("g14", base: 1, ["g"], to: "f14"), client: "c1", role: .editor).event != nil)
    }

    @Test func theItemLimitCountsWhatFoldersHold() throws {
        var engine = try makeEngine("todo: f/; /f: a b")
        engine.maximumItems = 3
        #expect(
            engine.apply(insert("i", base: 0, ["n"], to: "todo"), client: "c1", role: .editor).rejection?.message
                == "the board holds at most 3 items (it has 3)")
    }

    @Test func aFolderIsNotAColumn() throws {
        var engine = try makeEngine("todo: f/; /f:")
        let remove = OperationRequest(opId: "r", .removeCollection(collection: "f"))
        #expect(engine.apply(remove, client: "c1", role: .owner).rejection?.message == "f is a folder: it is renamed and deleted as an item")
        #expect(engine.apply(OperationRequest(opId: "t", .renameCollection(collection: "f", title: "F")), client: "c1", role: .owner).rejectionCode == .invalid)
        #expect(
            engine.apply(OperationRequest(opId: "a", .addCollection(collection: "f", title: "F", before: nil)), client: "c1", role: .owner).rejectionCode
                == .invalid)
        let clash = OperationRequest(
            opId: "i", baseSeq: 0, .insert(items: [Item(id: "todo", label: "T", folder: Folder())], destination: Destination(collection: "f")))
        #expect(engine.apply(clash, client: "c1", role: .owner).rejection?.message == "folder todo would have the id of a collection")
        // A column added before a folder's list lands at the end of the columns.
        let added = engine.apply(OperationRequest(opId: "b", .addCollection(collection: "done", title: "Done", before: "f")), client: "c1", role: .owner)
        #expect(added.event?.adjusted == true)
        #expect(engine.board.collections.map(\.id) == ["todo", "done"])
    }

    /// An offsets move inside a folder reads the folder as it was at the base seq, also when
    /// the folder was made after it or deleted since.
    @Test func offsetsMovesReadAFoldersPast() throws {
        var engine = try makeEngine("todo: f/ x; /f: a b c")
        #expect(engine.apply(move("m", base: 0, ["x"], to: "f", before: "a"), client: "c1", role: .editor).event != nil)
        let event = try #require(engine.apply(moveOffsets("o", base: 0, "f", from: [2], to: 0), client: "c1", role: .editor).event)
        // At seq 0 the folder held a b c: offset 2 is c, offset 0 is a (x came in since).
        #expect(event.op == .move(sources: ["c"], destination: Destination(collection: "f", before: "a")))
        let folder = OperationRequest(
            opId: "g", baseSeq: 2, .insert(items: [Item(id: "g", label: "G", folder: Folder())], destination: Destination(collection: "todo")))
        #expect(engine.apply(folder, client: "c1", role: .editor).event != nil)
        #expect(engine.apply(moveOffsets("before-g", base: 2, "g", from: [0], to: 0), client: "c1", role: .editor).rejectionCode == .invalid)
        #expect(engine.apply(delete("d", base: 3, ["f"]), client: "c1", role: .editor).event != nil)
        // f is gone now, but at seq 3 it held x c a b: the offsets read those items.
        #expect(engine.apply(moveOffsets("after-d", base: 3, "f", from: [1], to: 0), client: "c1", role: .editor).rejectionCode == .gone)
    }

    @Test func boardsWithBrokenFoldersAreRefused() {
        let problems = [
            "todo: f/; /g: a": "folders[\"g\"]: there is no folder item g",
            "todo: a; /f: f/": "folders[\"f\"]: folder f is inside itself",
            "todo: todo/": "collections[0].items[0].id: folder todo has the id of a collection (collections[0])",
        ]
        for (text, problem) in problems {
            #expect(makeBoard(text).validationProblems().contains(problem), "\(text): \(makeBoard(text).validationProblems())")
        }
        let chain = (1...16).map { "/f\($0): f\($0 + 1)/" }.joined(separator: "; ")
        #expect(makeBoard("todo: f1/; \(chain); /f17: a").validationProblems().contains { $0.contains("deeper than 16 levels") })
    }

    @Test func foldersSurviveJSONAndOlderBoardsHaveNone() throws {
        let board = makeBoard("todo: a f/!; /f: b g/; /g: c")
        let decoded = try JSONDecoder().decode(Board.self, from: JSONEncoder().encode(board))
        #expect(decoded == board)
        let older = #"{"id":"b","title":"T","locked":false,"collections":[{"id":"todo","title":"T","items":[{"id":"a","label":"a"}]}]}"#
        #expect(try JSONDecoder().decode(Board.self, from: Data(older.utf8)).folders.isEmpty)
        let update = try JSONDecoder().decode(BoardOperation.self, from: Data(#"{"type":"update","item":"f","accepts":false}"#.utf8))
        #expect(update == .updateFolder(item: "f", accepts: false))
    }
}
