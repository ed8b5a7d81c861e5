import CorkboardModel

/// Where boards and their committed events are kept: the interface every board
/// sequencer commits through (memory, SQLite and PostgreSQL behind the same calls).
///
/// Every call answers through its completion, on a queue of the store's choosing, exactly
/// once. A store that cannot do what is asked (disk full, read-only, unreachable, closed)
/// answers `.unavailable`; nothing it was given is then half-written.
///
/// Several server nodes may share one store (PostgreSQL): `append` therefore names the
/// seq it extends, and answers `.conflict` when another node got there first, so the
/// sequencer can catch up with `events(after:)` instead of forking the board. What such a
/// store tells the nodes about each other is a protocol of its own, `ClusterSignals`.
///
/// A store keeps each board's log by `LogRetention` (`LogFolding` decides when and how far
/// to fold). Everything promised here is checked, for every store, by the contract suite in
/// Tests/CorkboardStoreTests (docs/storage.md, "Adding a store").
public protocol BoardStore: AnyObject, Sendable {
    /// Every board, ordered by id.
    func listBoards(_ completion: @escaping @Sendable (Result<[BoardSummary], StoreError>) -> Void)

    /// Creates a board at seq 0. `.alreadyExists` when the id is taken.
    func createBoard(_ board: Board, epoch: String, _ completion: @escaping @Sendable (Result<Void, StoreError>) -> Void)

    /// Deletes a board and everything kept for it (its log, snapshots, remembered answers,
    /// leases): afterwards it is not listed, does not load, and its id may be created anew.
    /// `.notFound` when there is no such board.
    func deleteBoard(_ id: String, _ completion: @escaping @Sendable (Result<Void, StoreError>) -> Void)

    /// The board with its recent history (at most `historyLimit` events before its current
    /// seq; older kept events are folded into the returned snapshot, on a copy), or nil when
    /// there is no such board.
    func loadBoard(
        _ id: String, historyLimit: Int,
        _ completion: @escaping @Sendable (Result<StoredBoard?, StoreError>) -> Void)

    /// Makes a batch durable: its events extend the board's log at `batch.expectedSeq`, and
    /// its permanent rejections and noops are remembered for opId replays (an answer for an
    /// opId already remembered replaces it). Succeeds only when all of it is durable.
    /// `.unavailable` first for events not numbered `expectedSeq + 1, + 2, …`
    /// (`CommitBatch.seqOrderProblem`); then `.notFound` for an unknown board, `.conflict`
    /// when the board's seq is no longer `expectedSeq`. A refused batch leaves the board as
    /// it was.
    func append(_ batch: CommitBatch, _ completion: @escaping @Sendable (Result<Void, StoreError>) -> Void)

    /// Committed events after `seq`, oldest first, at most `limit` of them: how a node
    /// catches up after a `.conflict`. `.notFound` for an unknown board, `.pruned` when
    /// `seq` is older than the log.
    func events(
        board id: String, after seq: Int, limit: Int,
        _ completion: @escaping @Sendable (Result<[CommittedEvent], StoreError>) -> Void)

    /// Puts an archived board in (`corkboard import`, `PUT /api/boards/{id}/archive`), in one
    /// transaction: what `ArchiveImport(archive, existing:)` plans, as a new board, or, when
    /// `replacing`, in place of the board under its id (whose log, answers, folded opIds and
    /// leases go, as with `deleteBoard`). `.alreadyExists` when the id is taken and not
    /// `replacing`; `.conflict(currentSeq:)` when the plan has no seq left (a board without
    /// history over one at the last seq). The caller validated the archive.
    func importBoard(
        _ archive: BoardArchive, replacing: Bool, _ completion: @escaping @Sendable (Result<ImportedBoard, StoreError>) -> Void)

    /// Finishes the writes already handed over and releases what the store holds (files,
    /// locks, connections); blocks until done. Calls after it answer `.unavailable`.
    func close()
}

/// A board as the store gives it back: a snapshot at `snapshotSeq` and the events after
/// it, which together rebuild the board at its current seq with a window of history.
public struct StoredBoard: Sendable, Hashable {
    public var snapshot: Board
    public var snapshotSeq: Int
    public var epoch: String
    /// Events `snapshotSeq + 1 …` in seq order.
    public var events: [CommittedEvent]
    /// Permanent rejections still remembered for opId replays (docs/protocol.md#resending-an-opid).
    public var rejections: [Rejection]
    /// Noops still remembered for opId replays: a repeat gets the noop again
    /// (docs/protocol.md#resending-an-opid).
    public var noops: [Noop]
    /// The opIds of committed events folded into `snapshot`, oldest first, as far back as the
    /// store keeps them (its `retained` count): a resend of one is answered, not applied again.
    public var foldedCommits: [FoldedCommit]

    public init(
        snapshot: Board, snapshotSeq: Int, epoch: String, events: [CommittedEvent],
        rejections: [Rejection] = [], noops: [Noop] = [], foldedCommits: [FoldedCommit] = []
    ) {
        self.snapshot = snapshot
        self.snapshotSeq = snapshotSeq
        self.epoch = epoch
        self.events = events
        self.rejections = rejections
        self.noops = noops
        self.foldedCommits = foldedCommits
    }

    /// The seq after the last event.
    public var seq: Int { events.last?.seq ?? snapshotSeq }
}

/// A committed event that was folded into a snapshot, by its opId and seq alone.
public struct FoldedCommit: Sendable, Hashable {
    public var opId: OperationID
    public var seq: Int

    public init(opId: OperationID, seq: Int) {
        self.opId = opId
        self.seq = seq
    }
}

/// What one sequencer hands the store in one go (group commit): the events committed
/// since the last batch, and the answers decided meanwhile that an opId replay must repeat
/// after a restart (permanent rejections and noops).
public struct CommitBatch: Sendable, Hashable {
    public var board: String
    /// The board's durable seq this batch extends; its first event has `expectedSeq + 1`.
    public var expectedSeq: Int
    public var events: [CommittedEvent]
    public var rejections: [Rejection]
    public var noops: [Noop]
    /// The epoch of the board the batch extends. When the board under this id has another
    /// (deleted and created again while the batch waited), the store answers `.notFound` and
    /// writes nothing: the batch belongs to a board that is gone, whatever its seq says. Nil
    /// is not checked (tools and tests that append by hand).
    public var epoch: String?

    public init(
        board: String, expectedSeq: Int, events: [CommittedEvent], rejections: [Rejection] = [], noops: [Noop] = [], epoch: String? = nil
    ) {
        self.board = board
        self.expectedSeq = expectedSeq
        self.events = events
        self.rejections = rejections
        self.noops = noops
        self.epoch = epoch
    }
}

extension CommitBatch {
    /// Whether the board a store holds under the batch's id, of `boardEpoch`, is the one the
    /// batch extends (one without an epoch extends any): otherwise it answers `.notFound`.
    public func extends(epoch boardEpoch: String) -> Bool {
        epoch.map { $0 == boardEpoch } ?? true
    }

    /// The title the batch's last board rename gives the board, nil when it renames none: how
    /// a store keeps its listing's title current without applying the events to a snapshot.
    public var boardTitle: String? {
        var title: String?
        for event in events {
            if case .renameBoard(let renamed) = event.op { title = renamed }
        }
        return title
    }

    /// Why the events are not numbered `expectedSeq + 1, + 2, …`, if they are not: a bug in
    /// the sequencer, which every store refuses (`.unavailable`) before writing anything.
    public var seqOrderProblem: String? {
        for (offset, event) in events.enumerated() where event.seq != expectedSeq + offset + 1 {
            return "batch for \(board) is not in seq order at \(event.seq)"
        }
        return nil
    }
}

public enum StoreError: Error, Sendable, Hashable, CustomStringConvertible {
    case alreadyExists
    case notFound
    /// The board moved past `expectedSeq` (another node appended first).
    case conflict(currentSeq: Int)
    /// Events asked for are no longer in the log: it starts after `logStartsAfter`.
    case pruned(logStartsAfter: Int)
    /// Storage full, read-only or unreachable: nothing was written.
    case unavailable(String)

    public var description: String {
        switch self {
        case .alreadyExists: "the board already exists"
        case .notFound: "no such board"
        case .conflict(let seq): "the board is already at seq \(seq)"
        case .pruned(let seq): "those events were pruned (the log starts after seq \(seq))"
        case .unavailable(let reason): "storage unavailable: \(reason)"
        }
    }
}
