import CorkboardStore
import Testing

/// The decision every store folds by: by count past `retained + slack`, by bytes after
/// `byteSlack` appended, whichever goes further.
@Suite struct LogFoldingTests {
    @Test func foldsByCountOnceTheBoundIsPassed() {
        let folding = LogFolding(LogRetention(retained: 10, byteBudget: 1_000_000))
        #expect(folding.retention.bound == 20)
        #expect(folding.afterAppend(board: "b", seq: 20, snapshotSeq: 0, appendedBytes: 10) == .keep)
        #expect(folding.afterAppend(board: "b", seq: 21, snapshotSeq: 0, appendedBytes: 10) == .fold(through: 11))
        #expect(folding.afterAppend(board: "b", seq: 31, snapshotSeq: 11, appendedBytes: 10) == .keep)
    }

    /// The slack is capped, not the classic 2× rule: a big `retained` folds every 1,024 events.
    @Test func theSlackIsCapped() {
        let folding = LogFolding(LogRetention(retained: 100_000))
        #expect(folding.afterAppend(board: "b", seq: 101_025, snapshotSeq: 0, appendedBytes: 1) == .fold(through: 1_025))
    }

    @Test func measuresAfterAnEighthOfTheBudgetPerBoard() {
        let folding = LogFolding(LogRetention(retained: 1_000, byteBudget: 800))
        #expect(folding.retention.byteSlack == 100)
        #expect(folding.afterAppend(board: "a", seq: 1, snapshotSeq: 0, appendedBytes: 60) == .keep)
        #expect(folding.afterAppend(board: "b", seq: 1, snapshotSeq: 0, appendedBytes: 60) == .keep)
        #expect(folding.afterAppend(board: "a", seq: 2, snapshotSeq: 0, appendedBytes: 60) == .measure(foldingByCountThrough: nil))
        // Measured: the tally starts again.
        #expect(folding.afterAppend(board: "a", seq: 3, snapshotSeq: 0, appendedBytes: 60) == .keep)
        // Not while a fold runs: the bytes wait for the next append.
        #expect(folding.afterAppend(board: "b", seq: 2, snapshotSeq: 0, appendedBytes: 60, canMeasure: false) == .keep)
        #expect(folding.afterAppend(board: "b", seq: 3, snapshotSeq: 0, appendedBytes: 0) == .measure(foldingByCountThrough: nil))
    }

    @Test func foldsThroughTheNewestEventPastTheBudgetOrTheCountWhicheverIsFurther() {
        let folding = LogFolding(LogRetention(retained: 1_000, byteBudget: 800))
        let newestFirst = [(seq: 5, bytes: 300), (seq: 4, bytes: 300), (seq: 3, bytes: 300), (seq: 2, bytes: 300)]
        #expect(folding.foldThrough(byCount: nil, snapshotSeq: 1, newestFirst: newestFirst) == 3)
        #expect(folding.foldThrough(byCount: 4, snapshotSeq: 1, newestFirst: newestFirst) == 4)
        #expect(folding.foldThrough(byCount: nil, snapshotSeq: 1, newestFirst: newestFirst.prefix(2)) == nil)
    }

    @Test func answersAndOpIdsAreKeptForTheLastRetained() {
        let folding = LogFolding(LogRetention(retained: 4))
        #expect(folding.answersToForget(count: 8) == 0)
        #expect(folding.answersToForget(count: 9) == 5)
        #expect(folding.opIdsForgottenThrough(seq: 40) == 36)
    }
}
