import CorkboardModel

/// A board's kept log in an archive (format 2): the snapshot the store keeps, at
/// `snapshotSeq`, and the committed events after it, `snapshotSeq + 1 … seq`. Applying the
/// events to the snapshot gives the archive's board; an import stores them as they are, so
/// the board keeps its seqs, its log (`GET …/ops`, resume by seq, the event stream) and the
/// opIds of its commits (a resend is answered, not applied again).
public struct ArchivedHistory: Sendable, Hashable, Codable {
    public var snapshot: Board
    public var snapshotSeq: Int
    /// In seq order, each with its opId, client, `at` and `by` as committed.
    public var events: [CommittedEvent]

    public init(snapshot: Board, snapshotSeq: Int, events: [CommittedEvent]) {
        self.snapshot = snapshot
        self.snapshotSeq = snapshotSeq
        self.events = events
    }

    /// Why this history cannot stand behind `board` at `seq`, if anything: a snapshot that
    /// breaks the model's rules or the limits, events not numbered `snapshotSeq + 1 … seq`,
    /// an event that does not apply, or a fold that is not `board`. Only the first problem of
    /// the log is named (the rest follow from it).
    func problems(leadingTo board: Board, at seq: Int, limits: BoardSizeLimits) -> [String] {
        var problems: [String] = []
        if snapshot.id != board.id { problems.append("history.snapshot is of board \(String(reflecting: snapshot.id)), not of this one") }
        if snapshotSeq < 0 || snapshotSeq > seq { problems.append("history.snapshotSeq must be 0…\(seq) (the archive's seq)") }
        problems += snapshot.validationProblems().map { "history.snapshot: \($0)" }
        problems += limits.problems(of: snapshot).map { "history.snapshot: \($0)" }
        guard problems.isEmpty else { return problems }
        var folded = FoldingBoard(snapshot)
        for (offset, event) in events.enumerated() {
            guard event.seq == snapshotSeq + offset + 1 else {
                return ["history.events[\(offset)] has seq \(event.seq), not \(snapshotSeq + offset + 1): the log must be whole"]
            }
            // Well-formed rather than NFC: opIds committed before 0.24 may be in another form.
            guard Limits.isWellFormedID(event.opId), !event.opId.utf8.contains(0) else {
                return ["history.events[\(offset)].opId must be 1…128 bytes without NUL"]
            }
            do {
                try folded.apply(event.op)
            } catch {
                return ["history.events[\(offset)] (seq \(event.seq)) does not apply: \(error)"]
            }
        }
        if snapshotSeq + events.count != seq {
            return ["history.events end at seq \(snapshotSeq + events.count), not at the archive's seq \(seq)"]
        }
        if folded.board != board { return ["history does not lead to the archive's board (its events applied to its snapshot give another)"] }
        return []
    }
}

extension BoardArchive {
    /// The archive of a board as a store loads it with its whole kept log
    /// (`loadBoard(id, historyLimit: .max)`): the board at its seq, its epoch, and with
    /// `history` the snapshot and events. How `corkboard export` reads every store alike.
    public init(_ stored: StoredBoard, history: Bool) throws(BoardError) {
        var board = FoldingBoard(stored.snapshot)
        for event in stored.events { try board.apply(event.op) }
        self.init(
            board: board.board, seq: stored.seq, epoch: stored.epoch,
            history: history ? ArchivedHistory(snapshot: stored.snapshot, snapshotSeq: stored.snapshotSeq, events: stored.events) : nil)
    }
}
