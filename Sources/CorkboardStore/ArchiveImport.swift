import CorkboardModel

/// What an import did (`BoardStore.importBoard`, `corkboard import`, `PUT …/archive`).
public struct ImportedBoard: Sendable, Hashable {
    public var id: String
    public var seq: Int
    public var epoch: String
    /// True when a board with this id existed and was replaced.
    public var replacedExisting: Bool

    public init(id: String, seq: Int, epoch: String, replacedExisting: Bool) {
        self.id = id
        self.seq = seq
        self.epoch = epoch
        self.replacedExisting = replacedExisting
    }
}

/// What a store writes for an archive, decided here once for every store (each writes it in
/// its own medium, in one transaction, with the board it found under the id):
///
/// - A new id: the board at the archive's seq with the archive's epoch (a fresh one when the
///   archive has none), so clients of the exporting server that hold (epoch, seq) can resume
///   if nothing happened there since.
/// - An existing id (replaced): **always a fresh epoch**, never the old one nor the archive's,
///   so no client or sequencer holding the old `(epoch, seq)` resumes or appends into the new
///   history. An archive with history keeps its seqs (its log is the board's log, and the new
///   epoch tells the old history's clients to reload); one without gets seq
///   `max(old seq, archive seq) + 1`, past every seq the old board gave out.
///
/// The archive must have passed `validationProblems(limits:)`.
public struct ArchiveImport: Sendable, Hashable {
    /// The board at `seq`: its listed title and lock.
    public var board: Board
    public var seq: Int
    public var epoch: String
    /// What the store keeps as the board's snapshot, at `snapshotSeq`.
    public var snapshot: Board
    public var snapshotSeq: Int
    /// The log after the snapshot, `snapshotSeq + 1 … seq`.
    public var events: [CommittedEvent]

    /// The plan for `archive` over `existing` (the board under its id, nil when there is none);
    /// nil when a board without history would need a seq past `Limits.maximumSeq`.
    public init?(_ archive: BoardArchive, existing: (seq: Int, epoch: String)?) {
        board = archive.board
        if let existing {
            epoch = Self.freshEpoch(differentFrom: [existing.epoch, archive.epoch])
            if archive.history != nil {
                seq = archive.seq
            } else {
                let highest = max(existing.seq, archive.seq)
                guard highest < Limits.maximumSeq else { return nil }
                seq = highest + 1
            }
        } else {
            epoch = archive.epoch ?? Epoch.make()
            seq = archive.seq
        }
        if let history = archive.history, seq == archive.seq {
            snapshot = history.snapshot
            snapshotSeq = history.snapshotSeq
            events = history.events
        } else {
            snapshot = archive.board
            snapshotSeq = seq
            events = []
        }
    }

    public func imported(replacedExisting: Bool) -> ImportedBoard {
        ImportedBoard(id: board.id, seq: seq, epoch: epoch, replacedExisting: replacedExisting)
    }

    /// `Epoch.make()` is random; a collision with the epoch being replaced would let a
    /// stale client resume into the new history, so it is ruled out rather than trusted.
    static func freshEpoch(differentFrom old: [String?]) -> String {
        while true {
            let epoch = Epoch.make()
            if !old.contains(epoch) { return epoch }
        }
    }
}
