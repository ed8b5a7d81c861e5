import CorkboardModel

/// Where boards and their committed events are kept: the interface every board
/// sequencer commits through (in-memory here; SQLite and PostgreSQL behind the same calls).
///
/// Every call answers through its completion, on a queue of the store's choosing, exactly
/// once. A store that cannot do what is asked (disk full, read-only, unreachable) answers
/// `.unavailable`; nothing it was given is then half-written.
///
/// Several server nodes may share one store (PostgreSQL): `append` therefore names the
/// seq it extends, and answers `.conflict` when another node got there first, so the
/// sequencer can catch up with `events(after:)` instead of forking the board.
public protocol BoardStore: AnyObject, Sendable {
    /// Every board, ordered by id.
    func listBoards(_ completion: @escaping @Sendable (Result<[BoardSummary], StoreError>) -> Void)

    /// Creates a board at seq 0. `.alreadyExists` when the id is taken.
    func createBoard(_ board: Board, epoch: String, _ completion: @escaping @Sendable (Result<Void, StoreError>) -> Void)

    /// The board with its recent history (at most `historyLimit` events before its current
    /// seq), or nil when there is no such board.
    func loadBoard(
        _ id: String, historyLimit: Int,
        _ completion: @escaping @Sendable (Result<StoredBoard?, StoreError>) -> Void)

    /// Makes a batch durable: its events extend the board's log at `batch.expectedSeq`, and
    /// its permanent rejections are remembered for opId replays. Succeeds only when all of it
    /// is durable. `.conflict` when the board's seq is no longer `expectedSeq`.
    func append(_ batch: CommitBatch, _ completion: @escaping @Sendable (Result<Void, StoreError>) -> Void)

    /// Committed events after `seq`, oldest first, at most `limit` of them: how a node
    /// catches up after a `.conflict`. `.notFound` for an unknown board, `.pruned` when
    /// `seq` is older than the log.
    func events(
        board id: String, after seq: Int, limit: Int,
        _ completion: @escaping @Sendable (Result<[CommittedEvent], StoreError>) -> Void)

    /// Finishes the writes already handed over and releases what the store holds (files,
    /// locks, connections); blocks until done. Calls after it answer `.unavailable`.
    func close()

    /// Hears other nodes through a shared store: their commits and drags, and when to catch
    /// up. Called on a queue of the store's; a store of one node never calls it.
    func observe(_ handler: @escaping @Sendable (StoreSignal) -> Void)

    /// Sends a presence message to every node sharing the store (itself included), unstored.
    func publish(presence payload: String)

    /// This node's name among those sharing the store; nil for a store of one node.
    var nodeName: String? { get }

    /// Leases `items` of `board` to `holder` across nodes (replacing what it held there):
    /// nil when granted, or the holder of one of them. A store of one node grants at once
    /// (the room's own lease table decides).
    func lease(
        board: String, items: [ItemID], holder: ClientID,
        _ completion: @escaping @Sendable (Result<ClientID?, StoreError>) -> Void)

    /// Gives back everything `holder` leased on `board`.
    func releaseLeases(board: String, holder: ClientID)

    /// The items `holder` holds on `board` now (in no particular order): how a node that
    /// missed the start of another node's drag learns what it holds. Empty when nothing.
    func leasedItems(
        board: String, holder: ClientID,
        _ completion: @escaping @Sendable (Result<[ItemID], StoreError>) -> Void)
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

    public init(board: String, expectedSeq: Int, events: [CommittedEvent], rejections: [Rejection] = [], noops: [Noop] = []) {
        self.board = board
        self.expectedSeq = expectedSeq
        self.events = events
        self.rejections = rejections
        self.noops = noops
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

/// What a store shared by several nodes tells the hub about the others.
public enum StoreSignal: Sendable, Hashable {
    /// Another node (or this one) made `board` durable up to `seq`: rooms that are behind
    /// read the events after their own seq. Only a wake-up: the events come from the store.
    case committed(board: String, seq: Int)
    /// Notifications may have been missed (the store reconnected): every room catches up.
    case resynchronize
    /// A presence message from a node (never stored).
    case presence(String)
    /// A node's heartbeat: it lives (a node not heard from for a while is gone, and so
    /// are its members' drags).
    case nodeAlive(String)
}

/// A store used by one node alone (memory, SQLite) has nothing to signal and nobody to
/// share leases with.
extension BoardStore {
    public func observe(_ handler: @escaping @Sendable (StoreSignal) -> Void) {}
    public func publish(presence payload: String) {}
    public var nodeName: String? { nil }
    public func lease(
        board: String, items: [ItemID], holder: ClientID,
        _ completion: @escaping @Sendable (Result<ClientID?, StoreError>) -> Void
    ) {
        completion(.success(nil))
    }
    public func releaseLeases(board: String, holder: ClientID) {}
    public func leasedItems(
        board: String, holder: ClientID,
        _ completion: @escaping @Sendable (Result<[ItemID], StoreError>) -> Void
    ) {
        completion(.success([]))
    }
}
