import CorkboardModel
import CorkboardStore
import Foundation
import TestSupport
import Testing

@testable import CorkboardSQLite

/// `importBoard` refuses, before writing anything, an archive past the server's limits or
/// one whose seq has no room: every problem is named, with the board.
@Suite(.threadsOfTheirOwn) struct ImportRefusalTests {
    @Test func anArchivePastTheLimitsIsRefusedWithEveryProblemAndNothingWritten() throws {
        let directory = try TemporaryDirectory()
        let store = try Fixtures.open(directory)
        let big = BoardArchive(board: Fixtures.board("big"), seq: Limits.maximumSeq + 1, epoch: "")
        #expect(
            throws: SQLiteStoreError.invalidArchive(
                board: "big",
                problems: [
                    "seq 9007199254740992 is past the last seq a board reaches, 9007199254740991 (2^53 − 1)",
                    "epoch must be 1…128 bytes of UTF-8 in Unicode NFC, without NUL (leave it out for a fresh one)",
                    "collections: a board holds at most 1 items; this one has 2",
                ])
        ) {
            try store.importBoard(big, limits: BoardSizeLimits(maximumItems: 1, maximumCollections: nil))
        }
        #expect(try store.list().isEmpty)
    }

    @Test func aBoardAtTheLastSeqCannotBeReplaced() throws {
        let directory = try TemporaryDirectory()
        let store = try Fixtures.open(directory)
        let last = BoardArchive(board: Fixtures.board(), seq: Limits.maximumSeq, epoch: "kept")
        #expect(try store.importBoard(last, limits: Fixtures.limits).seq == Limits.maximumSeq)
        #expect(throws: SQLiteStoreError.self) {
            try store.importBoard(BoardArchive(board: Fixtures.board(), seq: 3, epoch: nil), limits: Fixtures.limits)
        }
        #expect(try store.exportBoard("b") == last)
        // A store holding a board at the last seq still loads it: an engine takes it and refuses what would pass it.
        let stored = try #require(try store.load("b"))
        var engine = try BoardEngine(snapshot: stored.snapshot, seq: stored.snapshotSeq, replaying: stored.events)
        #expect(
            engine.apply(OperationRequest(opId: "x", baseSeq: Limits.maximumSeq, .delete(items: ["i1"])), client: "c", role: .owner)
                == .rejected(Rejection(opId: "x", code: .invalid, message: "the board is at its last seq (9007199254740991) and takes no more operations")))
    }
}
