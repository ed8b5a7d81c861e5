import CoreMetrics
import CorkboardModel
import Dispatch

/// What the hub counts, through swift-metrics: the server hands in a Prometheus factory,
/// tests and benchmarks may leave the default, which records nothing. Made once per hub, so
/// recording is a call on a ready handler, never a lookup by name.
struct HubMetrics: Sendable {
    /// Boards loaded in memory (rooms that found their board).
    let boards: Meter
    /// WebSocket clients joined to a board.
    let members: Meter
    /// Drags in progress.
    let drags: Meter
    /// Events made durable and broadcast.
    let committed: Counter
    /// Events other nodes committed, read from the shared store and broadcast here.
    let followed: Counter
    /// Batches another node beat to the board's next seq (resolved again after catching up).
    let conflicts: Counter
    private let rejected: [RejectionCode: Counter]
    /// From the sequencer's decision to the hand-over of the durable event to the sockets:
    /// the group commit's wait plus the store's write.
    let commitToBroadcast: Timer

    static let commitToBroadcastLabel = "corkboard_commit_to_broadcast_seconds"

    init(factory: MetricsFactory) {
        boards = Meter(label: "corkboard_boards", factory: factory)
        members = Meter(label: "corkboard_members", factory: factory)
        drags = Meter(label: "corkboard_drags", factory: factory)
        committed = Counter(label: "corkboard_ops_committed_total", factory: factory)
        followed = Counter(label: "corkboard_ops_followed_total", factory: factory)
        conflicts = Counter(label: "corkboard_store_conflicts_total", factory: factory)
        rejected = Dictionary(
            uniqueKeysWithValues: RejectionCode.allCases.map { code in
                (code, Counter(label: "corkboard_ops_rejected_total", dimensions: [("code", code.rawValue)], factory: factory))
            })
        commitToBroadcast = Timer(label: Self.commitToBroadcastLabel, factory: factory)
    }

    func rejected(_ code: RejectionCode) {
        rejected[code]?.increment()
    }

    /// Counts what the sender of an operation is told (a commit is counted when broadcast).
    func count(_ outcome: Outcome) {
        if case .rejected(let rejection) = outcome { rejected(rejection.code) }
    }

    func recordCommitToBroadcast(since start: UInt64) {
        let now = DispatchTime.now().uptimeNanoseconds
        commitToBroadcast.recordNanoseconds(now > start ? now - start : 0)
    }
}
