import CorkboardStore
import Testing

@testable import CorkboardSQLite

/// One fold per board at a time, and a fold that failed is not tried again from the same
/// snapshot (each try would read and decode the whole log on the queue every board's folds share).
@Suite struct RunningFoldsTests {
    static func job(_ board: String, epoch: String = "e1", snapshotSeq: Int = 10) -> FoldJob {
        FoldJob(board: board, epoch: epoch, snapshotSeq: snapshotSeq, step: .fold(through: 20))
    }

    @Test func oneFoldPerBoardAtATime() {
        let folds = RunningFolds()
        #expect(folds.begin(Self.job("a")) && !folds.begin(Self.job("a")) && folds.begin(Self.job("b")))
        folds.end("a")
        folds.end("b")
        #expect(folds.begin(Self.job("a")))
        folds.end("a")
        folds.waitUntilNoneRuns()
    }

    @Test func aFailedFoldWaitsForAnotherSnapshotOrEpoch() {
        let folds = RunningFolds()
        #expect(folds.begin(Self.job("a")))
        folds.failed(Self.job("a"))
        #expect(!folds.contains("a"))
        #expect(!folds.begin(Self.job("a")), "the same log again")
        #expect(folds.begin(Self.job("a", snapshotSeq: 11)), "folded since (another snapshot)")
        folds.end("a")
        #expect(folds.begin(Self.job("a")), "the failure was forgotten once the board moved on")
        folds.end("a")
        folds.failed(Self.job("b"))
        #expect(folds.begin(Self.job("b", epoch: "e2")), "imported over (another epoch)")
        folds.end("b")
        folds.waitUntilNoneRuns()
    }
}
