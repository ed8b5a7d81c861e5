import CoreMetrics
import CorkboardModel
import Dispatch

/// What the hub counts, through swift-metrics: the server hands in a Prometheus factory,
/// tests and benchmarks may leave the default, which records nothing. Made once per hub, so
/// recording is a call on a ready handler, never a lookup by name.
struct HubMetrics: Sendable {
    /// Boards loaded in memory (rooms that found their board); the boards the store holds
    /// are counted by the server at each scrape.
    let boardsLoaded: Meter
    /// WebSocket clients joined to a board.
    let members: Meter
    /// Drags in progress.
    let drags: Meter
    /// Events made durable and broadcast.
    let committed: Counter
    /// Events other nodes committed, read from the shared store and broadcast here.
    let followed: Counter
    /// Boards written for `welcome` snapshots: once per board and seq, shared by every join at it.
    let welcomeBoardsWritten: Counter
    /// Batches another node beat to the board's next seq (resolved again after catching up).
    let conflicts: Counter
    private let rejected: [RejectionCode: Counter]
    /// From the sequencer's decision to the hand-over of the durable event to the sockets:
    /// the group commit's wait plus the store's write.
    let commitToBroadcast: Timer
    /// One group commit's append, from the hand-over of the batch to the store's answer.
    let storeWrite: Timer

    static let commitToBroadcastLabel = "corkboard_commit_to_broadcast_seconds"
    static let storeWriteLabel = "corkboard_store_write_seconds"

    /// The HELP text of each family, by label: swift-metrics has no place for it, so the
    /// factory that makes the handlers looks it up here (`GET /metrics` prints it).
    static let help: [String: String] = [
        "corkboard_boards_loaded": "Boards loaded in this node's memory (rooms that found their board).",
        "corkboard_members": "Clients joined to a board: WebSocket members (observers included) and event streams.",
        "corkboard_drags": "Drags in progress.",
        "corkboard_ops_committed_total": "Events made durable by this node and broadcast.",
        "corkboard_ops_followed_total": "Events other nodes committed, read from the shared store and broadcast here.",
        "corkboard_welcome_boards_written_total":
            "Boards written to JSON for welcome snapshots: once per board and seq, shared by every join at that seq.",
        "corkboard_store_conflicts_total": "Batches another node beat to the board's next seq (resolved again after catching up).",
        "corkboard_ops_rejected_total": "Operations rejected, by code.",
        commitToBroadcastLabel: "From the sequencer's decision to the hand-over of the durable event to the sockets.",
        storeWriteLabel: "Time of one group commit's write to the store (a batch of events of one board).",
    ]

    init(factory: MetricsFactory) {
        boardsLoaded = Meter(label: "corkboard_boards_loaded", factory: factory)
        members = Meter(label: "corkboard_members", factory: factory)
        drags = Meter(label: "corkboard_drags", factory: factory)
        committed = Counter(label: "corkboard_ops_committed_total", factory: factory)
        followed = Counter(label: "corkboard_ops_followed_total", factory: factory)
        conflicts = Counter(label: "corkboard_store_conflicts_total", factory: factory)
        welcomeBoardsWritten = Counter(label: "corkboard_welcome_boards_written_total", factory: factory)
        rejected = Dictionary(
            uniqueKeysWithValues: RejectionCode.allCases.map { code in
                (code, Counter(label: "corkboard_ops_rejected_total", dimensions: [("code", code.rawValue)], factory: factory))
            })
        commitToBroadcast = Timer(label: Self.commitToBroadcastLabel, factory: factory)
        storeWrite = Timer(label: Self.storeWriteLabel, factory: factory)
    }

    func rejected(_ code: RejectionCode) {
        rejected[code]?.increment()
    }

    /// Counts what the sender of an operation is told (a commit is counted when broadcast).
    func count(_ outcome: Outcome) {
        if case .rejected(let rejection) = outcome { rejected(rejection.code) }
    }

    func recordCommitToBroadcast(since start: UInt64) {
        commitToBroadcast.recordNanoseconds(Self.elapsed(since: start))
    }

    func recordStoreWrite(since start: UInt64) {
        storeWrite.recordNanoseconds(Self.elapsed(since: start))
    }

    private static func elapsed(since start: UInt64) -> UInt64 {
        let now = DispatchTime.now().uptimeNanoseconds
        return now > start ? now - start : 0
    }
}

extension Hub {
    /// The HELP text of the hub's metric families, by label, for the factory handed to `init`.
    public static var metricHelp: [String: String] { HubMetrics.help }
}
