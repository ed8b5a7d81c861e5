import CorkboardStore

/// A fold of one board's log, decided by an append inside the shared transaction and carried
/// out after it, off the store's queue (`SQLiteStore+Folding.swift`): what `LogFolding` said
/// (fold through a seq, or measure first), and the board's epoch and snapshot seq it was
/// decided against, which the install checks so that a board deleted, imported or folded
/// meanwhile is left alone.
struct FoldJob: Sendable, Hashable {
    var board: String
    var epoch: String
    var snapshotSeq: Int
    var step: LogFolding.Step
}
