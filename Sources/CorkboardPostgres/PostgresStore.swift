import CorkboardModel
import CorkboardStore
import Dispatch
import Foundation
import Synchronization

/// The scale-out store: boards in PostgreSQL, shared by every Corkboard node that points at
/// the same database (docs/storage.md, "Several nodes").
///
/// Three libpq connections: `writer` carries every statement but the folds', pipelined (rooms
/// of many boards append at once without waiting for each other's round trips); `listener`
/// only LISTENs, turning other nodes' commits (`corkboard_commits`), drags (`corkboard_presence`)
/// and board deletions (`corkboard_deletes`) into `StoreSignal`s; `folder` reads and installs
/// the folds of the logs, so that no board's statements wait behind them. All reconnect by themselves. While the writer is down every call
/// answers `.unavailable` at once. When either connection is back it signals `.resynchronize`:
/// notifications sent while the listener was away are lost, and a room's catch-up that failed
/// while the writer was away is not retried by the room, so rooms catch up by seq again.
///
/// Confinement: `foldsRunning`, `appendRounds`, `heartbeat` and `caughtUp`, the `var`s, are touched only on the writer's queue;
/// the rest is immutable or behind a lock. That is what makes `@unchecked Sendable` true.
public final class PostgresStore: BoardStore, ClusterSignals, @unchecked Sendable {
    public struct Configuration: Sendable {
        /// A `postgres://` URL or libpq connection string.
        public var url: String
        /// Events kept per board beyond its snapshot (as in SQLite): at least this many,
        /// folded once `retainedEvents + slack` are passed.
        public var retainedEvents: Int
        /// About how many bytes of events each board's log keeps (`LogRetention`).
        public var historyByteBudget = BoardEngine.defaultHistoryByteBudget
        public var connectTimeout: Double
        public var replyTimeout: Double
        /// How long `open` waits for the database before giving up.
        public var startupTimeout: Double
        /// While `open` waits, `waiting` is told so every this many seconds, with a line for
        /// the log (`waiting for PostgreSQL at host:port: …`): a start that takes long is
        /// never silent.
        public var waitingNoticeInterval: Double = 3
        public var waiting: (@Sendable (String) -> Void)?

        public init(
            url: String, retainedEvents: Int = BoardEngine.defaultHistoryCapacity, connectTimeout: Double = 5,
            replyTimeout: Double = 10, startupTimeout: Double = 15
        ) {
            self.url = url
            self.retainedEvents = retainedEvents
            self.connectTimeout = connectTimeout
            self.replyTimeout = replyTimeout
            self.startupTimeout = startupTimeout
        }
    }

    static let commitsChannel = "corkboard_commits"
    static let presenceChannel = "corkboard_presence"
    static let deletesChannel = "corkboard_deletes"
    /// "<board> <epoch>": that life of the board was replaced by an import.
    static let replacementsChannel = "corkboard_replacements"
    /// Heartbeats: each node's name, every `heartbeatInterval`; and its name with
    /// `stoppingSuffix` when it closes.
    static let nodesChannel = "corkboard_nodes"
    /// Any change of the revocations: every node reads them again.
    static let revocationsChannel = "corkboard_revocations"
    static let stoppingSuffix = " stopping"

    public let configuration: Configuration
    /// This node among those sharing the database: random, new at every start.
    let node = String(Epoch.make().prefix(8))
    public var nodeName: String { node }
    /// Renews leases and announces this node (touched on the writer's queue only).
    var heartbeat: DispatchSourceTimer?
    /// The events a conflict answer brought, by board, until the room asks for them; dropped
    /// once this store appends to the board or hears of a commit past them, when they would
    /// be stale (touched on the writer's queue only).
    var caughtUp: [String: (after: Int, events: [CommittedEvent])] = [:]
    let writer: PostgresConnection
    let listener: PostgresConnection
    /// Reads and installs folds (`PostgresStore+Folding.swift`), so that the writer's pipeline,
    /// which runs every board's statements in turn, never waits for a fold's.
    let folder: PostgresConnection
    private let observer = SignalRelay()
    let isClosed = Atomic<Bool>(false)
    /// Boards whose log is being folded (touched on the writer's queue only).
    var foldsRunning: Set<String> = []
    /// The appends of every board, gathered into one transaction per round
    /// (`PostgresStore+Append.swift`; touched on the writer's queue only).
    var appendRounds = AppendRounds<PendingAppend>(limit: PostgresStore.appendsPerRound)
    /// Where folds decode and apply the log, off the writer's queue, which every board's
    /// statements go through.
    let foldQueue = DispatchQueue(label: "corkboard.postgres.folds")
    /// When to fold which board's log. Its byte tally is this node's: every node measures
    /// after its own share of `byteSlack`, so a board's log passes its budget by at most a
    /// slack per node.
    let folding: LogFolding

    /// Connects, brings the schema up to date and starts listening. Throws when the database
    /// cannot be reached within `startupTimeout` or a migration fails.
    public static func open(_ configuration: Configuration) throws -> PostgresStore {
        let store = PostgresStore(configuration)
        do {
            try store.startWriter()
            try store.migrate()
        } catch {
            store.close()
            throw error
        }
        do {
            try store.startListener()
        } catch {
            store.close()
            throw error
        }
        do {
            try store.startFolder()
        } catch {
            store.close()
            throw error
        }
        store.startHeartbeat()
        return store
    }

    private init(_ configuration: Configuration) {
        self.configuration = configuration
        folding = LogFolding(LogRetention(retained: configuration.retainedEvents, byteBudget: configuration.historyByteBudget))
        let settings = PostgresConnection.Settings(
            url: configuration.url, connectTimeout: configuration.connectTimeout, replyTimeout: configuration.replyTimeout)
        writer = PostgresConnection(settings: settings, label: "corkboard.postgres.writer")
        var listening = settings
        listening.applicationName = "corkboard-listener"
        listener = PostgresConnection(settings: listening, label: "corkboard.postgres.listener")
        var foldSettings = settings
        foldSettings.applicationName = "corkboard-folds"
        folder = PostgresConnection(settings: foldSettings, label: "corkboard.postgres.folds")
    }

    // MARK: Starting

    private func startWriter() throws {
        let ready = DispatchSemaphore(value: 0)
        let lastFailure = Mutex<String?>(nil)
        let started = Atomic<Bool>(false)
        writer.onState = { [weak self] state in
            switch state {
            case .ready:
                // Back after a loss: rooms whose catch-up failed while the writer was down do
                // not retry by themselves (it would spin), and the listener may have come back
                // first and had its `.resynchronize` read nothing. Read again now.
                if started.load(ordering: .acquiring) { self?.signal(.resynchronize) } else { ready.signal() }
            case .lost(let reason):
                lastFailure.withLock { $0 = reason }
            }
        }
        writer.start()
        let deadline = DispatchTime.now() + configuration.startupTimeout
        let target = PostgresTarget.describe(configuration.url)
        while ready.wait(timeout: min(deadline, .now() + configuration.waitingNoticeInterval)) == .timedOut {
            let reason = lastFailure.withLock { $0 } ?? "no answer"
            guard DispatchTime.now() < deadline else {
                throw PostgresStoreError.unreachable(reason: reason, seconds: configuration.startupTimeout)
            }
            configuration.waiting?("waiting for PostgreSQL at \(target): \(reason)")
        }
        started.store(true, ordering: .releasing)
    }

    private func migrate() throws {
        let result = wait { self.writer.execute(PostgresSchema.migrationGroup, $0) }
        switch result {
        case .success: break
        case .failure(let error): throw PostgresStoreError.migrationFailed("\(error)")
        }
    }

    /// Starts listening and returns once the first LISTEN is in force: a node that served its
    /// clients before would miss the drags other nodes announce meanwhile (commits it would
    /// find by seq, presence it would not). Throws when that takes longer than `startupTimeout`.
    private func startListener() throws {
        let listening = DispatchSemaphore(value: 0)
        let started = Atomic<Bool>(false)
        listener.onNotification = { [weak self] channel, payload in self?.received(channel: channel, payload: payload) }
        listener.onState = { [weak self] state in
            guard let self, case .ready = state else { return }
            let statements = [
                Self.commitsChannel, Self.presenceChannel, Self.deletesChannel, Self.replacementsChannel, Self.nodesChannel,
                Self.revocationsChannel,
            ].map {
                PostgresStatement("LISTEN \($0)")
            }
            listener.executeOnQueue(statements) { [weak self] result in
                guard case .success = result else { return }
                // Listening again: whatever was committed while not listening is found by seq.
                if started.exchange(true, ordering: .acquiringAndReleasing) { self?.signal(.resynchronize) } else { listening.signal() }
            }
        }
        listener.start()
        guard listening.wait(timeout: .now() + configuration.startupTimeout) == .success else {
            throw PostgresStoreError.unreachable(reason: "the listening connection did not start", seconds: configuration.startupTimeout)
        }
    }

    /// Starts the folds' connection and returns once it is ready: a fold tried before would
    /// fail and wait for a later append of its board, which may never come. Later losses
    /// reconnect by themselves; a fold tried meanwhile waits the same way.
    private func startFolder() throws {
        let ready = DispatchSemaphore(value: 0)
        let started = Atomic<Bool>(false)
        folder.onState = { state in
            if case .ready = state, !started.exchange(true, ordering: .acquiringAndReleasing) { ready.signal() }
        }
        folder.start()
        guard ready.wait(timeout: .now() + configuration.startupTimeout) == .success else {
            throw PostgresStoreError.unreachable(reason: "the folds' connection did not start", seconds: configuration.startupTimeout)
        }
    }

    private func received(channel: String, payload: String) {
        switch channel {
        case Self.commitsChannel:
            // "<board> <seq>"; a board id holds no space (Limits.isValidID).
            guard let space = payload.lastIndex(of: " "), let seq = Int(payload[payload.index(after: space)...]) else { return }
            let board = String(payload[..<space])
            // A conflict's stash ends where that conflict saw the log end; a later commit makes it
            // incomplete. It goes before anyone hears of the commit, so no catch-up the wake-up
            // starts is answered from it (the room would take the commit as read).
            writer.queue.sync { forgetCaughtUp(board, before: seq) }
            signal(.committed(board: board, seq: seq))
        case Self.presenceChannel:
            signal(.presence(payload))
        case Self.deletesChannel:
            // "<board> <epoch>": the board id holds no space, the epoch may.
            guard let space = payload.firstIndex(of: " ") else { return }
            signal(.deleted(board: String(payload[..<space]), epoch: String(payload[payload.index(after: space)...])))
        case Self.replacementsChannel:
            // As a delete's: "<board> <epoch>".
            guard let space = payload.firstIndex(of: " ") else { return }
            signal(.replaced(board: String(payload[..<space]), epoch: String(payload[payload.index(after: space)...])))
        case Self.nodesChannel:
            // "<node>" beats; "<node> stopping" is its last word (a node's name holds no space).
            if payload.hasSuffix(Self.stoppingSuffix) {
                signal(.nodeStopping(String(payload.dropLast(Self.stoppingSuffix.count))))
            } else {
                signal(.nodeAlive(payload))
            }
        case Self.revocationsChannel:
            signal(.revocationsChanged)
        default:
            break
        }
    }

    private func signal(_ signal: StoreSignal) {
        observer.send(signal)
    }

    /// Waits for a call that answers through a completion (startup only).
    private func wait<T: Sendable>(_ call: (@escaping @Sendable (T) -> Void) -> Void) -> T {
        let answer = Mutex<T?>(nil)
        let done = DispatchSemaphore(value: 0)
        call { value in
            answer.withLock { $0 = value }
            done.signal()
        }
        done.wait()
        return answer.withLock { $0 }!
    }

    // MARK: ClusterSignals, and closing

    public func observe(_ handler: @escaping @Sendable (StoreSignal) -> Void) {
        observer.replace(with: handler)
    }

    public func publish(presence payload: String) {
        send([PostgresStatement("SELECT pg_notify($1, $2)", [Self.presenceChannel, payload])]) { _ in }
    }

    public func close() {
        guard !isClosed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        observer.replace(with: nil)
        writer.queue.sync { heartbeat?.cancel() }
        // Its drags end with it, and the other nodes hear it stop: nobody needs to wait for
        // its leases to lapse, nor for its heartbeats to be missed to take its members off
        // their lists.
        let released = DispatchSemaphore(value: 0)
        writer.execute([
            PostgresStatement("DELETE FROM lease WHERE node = $1", [node]),
            PostgresStatement("SELECT pg_notify($1, $2)", [Self.nodesChannel, node + Self.stoppingSuffix]),
        ]) { _ in released.signal() }
        _ = released.wait(timeout: .now() + 2)
        listener.close()
        folder.close()
        writer.close()
    }

    /// Runs a group on the writer, unless the store is closed.
    func send(
        _ statements: [PostgresStatement],
        _ completion: @escaping @Sendable (Result<[PostgresRows], PostgresError>) -> Void
    ) {
        guard !isClosed.load(ordering: .relaxed) else { return completion(.failure(.connection("the store is closed"))) }
        writer.execute(statements, completion)
    }

    /// Runs `reads` on one snapshot of the database (a fold or an append between them would
    /// otherwise tear the log from its snapshot); one `PostgresRows` per read.
    func runReading(
        _ reads: [PostgresStatement],
        _ completion: @escaping @Sendable (Result<[PostgresRows], StoreError>) -> Void
    ) {
        let group = [PostgresStatement("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")] + reads + [PostgresStatement("COMMIT")]
        run(group) { result in completion(result.map { Array($0.dropFirst().dropLast()) }) }
    }

    /// Runs a group on the writer and maps a failure to `.unavailable`.
    func run(
        _ statements: [PostgresStatement],
        _ completion: @escaping @Sendable (Result<[PostgresRows], StoreError>) -> Void
    ) {
        send(statements) { result in completion(result.mapError { .unavailable("\($0)") }) }
    }
}

public enum PostgresStoreError: Error, CustomStringConvertible {
    case unreachable(reason: String, seconds: Double)
    case migrationFailed(String)

    public var description: String {
        switch self {
        case .unreachable(let reason, let seconds):
            "cannot reach PostgreSQL within \(Int(seconds)) s: \(reason)"
        case .migrationFailed(let reason):
            "cannot bring the PostgreSQL schema up to date: \(reason)"
        }
    }
}
