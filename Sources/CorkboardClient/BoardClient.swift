import CorkboardModel
import CorkboardWire
import Sockets
import Synchronization

/// A bot's connection to one board: it joins (`hello`), keeps a replica that follows the
/// board's committed events in seq order, sends typed operations and answers each with its
/// outcome, sends drag presence, and survives dropped connections — it reconnects with
/// backoff, resumes from its `(epoch, seq)`, and resends unanswered operations with their
/// opIds, so nothing is applied twice.
///
/// ```swift
/// let client = BoardClient(BoardClientConfiguration(port: 8080, board: "demo", name: "sorter"))
/// try await client.connect()
/// let result = await client.move(["card-bot"], to: "done")
/// await client.close()
/// ```
///
/// Thread safety: every method may be called from any task or thread. The work happens on
/// one `IOLoop` (a serial queue) that owns the client's state; see `ClientCore`.
public final class BoardClient: Sendable {
    public let configuration: BoardClientConfiguration
    let core: ClientCore
    /// This client's own steps to undo and redo (`BoardClient+Undo`).
    let undoHistory = Mutex(UndoHistory())

    /// Loops for clients created without one: a bot process needs no more than one per core.
    public static let sharedLoops = IOLoopGroup(count: max(1, System.coreCount))

    /// A client that has not connected yet. `loop` runs its connection and state (by
    /// default one of `sharedLoops`).
    public init(_ configuration: BoardClientConfiguration, loop: IOLoop? = nil) {
        self.configuration = configuration
        core = ClientCore(configuration: configuration, loop: loop ?? Self.sharedLoops.next())
    }

    /// A client let go without `close()` leaves the board rather than keeping a socket open
    /// that nobody reads. (Pending operations hold the client, so none are waiting here.)
    deinit {
        let core = self.core
        core.loop.execute { core.abandon() }
    }

    // MARK: Lifecycle

    /// Connects and joins; returns the first `welcome`. One attempt: it throws
    /// `BoardClientError.cannotConnect` or `.refused` if that fails. Once joined, the client
    /// reconnects on its own after any drop until `close()`.
    @discardableResult
    public func connect() async throws -> Welcome {
        try await withCheckedThrowingContinuation { continuation in
            core.loop.execute { self.core.start(continuation) }
        }
    }

    /// Leaves the board (a close frame, so the others hear `peer.left` at once) and stops.
    /// Operations still waiting get `.unanswered(_, .closed)`; event streams end.
    public func close() async {
        await withCheckedContinuation { continuation in
            core.loop.execute { self.core.close(continuation) }
        }
    }

    /// Every event from now on (subscribe before `connect()` to see the first welcome).
    /// Each call gives a new stream; it ends when the client closes.
    public func events() -> AsyncStream<BoardEvent> {
        core.events.subscribe()
    }

    // MARK: State

    /// The board as this client knows it, and the seq of the last event applied. Nil before
    /// the first welcome.
    public var replica: Replica? { core.read { $0.replica } }
    public var board: Board? { replica?.board }
    public var seq: Int? { replica?.seq }
    public var epoch: String? { core.read { $0.epoch } }
    public var state: ConnectionState { core.read { $0.state } }
    /// The latest welcome (this connection's client id and role).
    public var welcome: Welcome? { core.read { $0.welcome } }
    /// The other members known by name, with their drags in progress: all of them on a board
    /// of up to `MembershipLimits.listedPeers`, else those the welcome and the `peers`
    /// messages named and the pages asked for with `listPeers(after:limit:)`. After a truncated
    /// `peers` tick a board of up to that many others is named again from a page the client
    /// asks for itself; a bigger one keeps only the tick's names if it knew more than the count.
    public var peers: [Peer] { core.read { $0.peers } }
    /// The others' editing marks by client (docs/protocol.md#editing-marks).
    public var editing: [ClientID: PeerEditing] { core.read { $0.editing } }
    /// The peers on the board, this client included unless it observes.
    public var memberCount: Int { core.read { $0.memberCount } }
    /// Operations sent (or queued) and not answered yet.
    public var pendingCount: Int { core.read { $0.pending.count } }

    /// Waits until the replica satisfies `condition` (checked now and after every change);
    /// returns it, or nil after `timeout` seconds or when the client closes.
    public func waitForReplica(timeout: Double = 10, until condition: @escaping @Sendable (Replica) -> Bool) async -> Replica? {
        await withCheckedContinuation { continuation in
            core.loop.execute { self.core.waitForReplica(timeout: timeout, condition: condition, continuation) }
        }
    }
}
