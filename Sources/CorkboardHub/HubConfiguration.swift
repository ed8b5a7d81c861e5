import CorkboardModel
import Dispatch

/// Settings of the hub (`corkboard serve` fills them from its options).
public struct HubConfiguration: Sendable {
    /// Committed events each board keeps in memory for resume, base seqs and `GET …/ops`.
    public var historyCapacity = BoardEngine.defaultHistoryCapacity
    /// About how many bytes of events each board keeps in memory (the history is the
    /// shorter of this and `historyCapacity`); the stores fold their logs by the same rule.
    public var historyByteBudget = BoardEngine.defaultHistoryByteBudget
    /// How long a new connection may take to send `hello` (the transport keeps the time and
    /// calls `HubSession.helloDeadlinePassed`).
    public var helloTimeout: DispatchTimeInterval = .seconds(10)
    /// How long (seconds) past its token's `exp` a member stays connected when it did not refresh the
    /// token: the clock skew allowed between the app's backend and the server, as at `hello`.
    public var tokenExpiryGrace: Double = 30
    /// A drag nobody updated for this long is cleared with reason `timeout`
    /// (docs/protocol.md#6-presence-drag-state: 30 s).
    public var dragTimeout: DispatchTimeInterval = .seconds(30)
    /// The least time between two `drag.over` broadcasts of one client
    /// (docs/protocol.md#6-presence-drag-state: one per 50 ms).
    public var dragBroadcastInterval: DispatchTimeInterval = .milliseconds(50)
    /// How often a board past `MembershipLimits.listedPeers` peers tells its joins and leaves,
    /// all of the tick in one `peers` message (docs/protocol.md#peers).
    public var membershipTick: DispatchTimeInterval = .milliseconds(100)
    /// Bytes of `peer.joined` and `peer.left` a board sends each member at once (every member
    /// gets the same); beyond it the changes wait for the membership tick and go out together
    /// in one `peers` message, as on a big board, so join churn on a small board costs each
    /// member at most this and one message a tick, not one message per join
    /// (docs/protocol.md#peers, issue #31). nil: no limit.
    public var announcementByteRate: RateLimit? = RateLimit(perSecond: 16_384)
    /// From this many members on, a board's drag changes go out once per
    /// `dragBroadcastInterval` as one `drags` message (docs/protocol.md#6-presence-drag-state);
    /// below it, one message per change. nil: never batched.
    public var dragBatchAudience: Int? = 50
    /// Events sent per step of a resume replay; the next step waits until the socket drained.
    public var replayChunk = 512
    /// Operations one WebSocket (or one HTTP client address) may send; beyond it they are
    /// `rejected` with `rate-limited`, which the client may retry with the same opId. nil: no limit.
    public var operationRate: RateLimit? = RateLimit(perSecond: 2000)
    /// Bytes of operation messages one WebSocket (or one HTTP client address) may send, so a
    /// client of big `update`s and `insert`s cannot fill the history and the store as fast as
    /// its socket allows; beyond it they are `rejected` `rate-limited` too. nil: no limit.
    public var operationByteRate: RateLimit? = Self.byteRate(perSecond: 1 << 20)
    /// Presence messages of one WebSocket handed to its room: `drag.over` beyond it is
    /// coalesced (the latest waits for the next token and replaces older ones), `drag.start`
    /// beyond it is `rejected` `rate-limited`, `drag.end` is always taken (counted, never
    /// refused, so no lease outlives the wish to let go).
    public var presenceRate: RateLimit? = RateLimit(perSecond: 60)
    /// `hello`s refused for their token (none, or one that proves nothing) or for not being a
    /// `hello`, per client address (IPv6 by /64): beyond it, the first message of a new
    /// connection from that address is refused before it is read (`error` `rate-limited`,
    /// close 1013), so guessing tokens is paced. Good hellos take nothing from it, but share
    /// their address's: after a restart, 100 clients behind one NAT with expired tokens
    /// hold the others back for a few seconds. Loopback peers are not counted (as for the
    /// connection limits). nil: no limit.
    public var refusedHelloRate: RateLimit? = RateLimit(perSecond: 10, burst: 100)
    /// `ping`s of one WebSocket answered `pong` (docs/protocol.md#liveness): a client pings
    /// every few seconds and after a network change, so a burst of 5 and 2 a second is ample;
    /// beyond it a ping is answered `error` `rate-limited`. Not presence: a client that pings
    /// keeps its whole presence budget. nil: no limit.
    public var pingRate: RateLimit? = RateLimit(perSecond: 2, burst: 5)
    /// Items one `drag.start` may hold (more: `rejected` `invalid`), and the items one
    /// WebSocket's drag starts may name per second (a full drag, then a full one a second
    /// later; beyond it `rejected` `rate-limited`): what the others receive of item lists is
    /// bounded whatever the dragger does. nil: no limit.
    public var maxDragItems: Int? = 1_000
    /// How long one drag may hold its items, `drag.over` or not; then it is cleared with
    /// reason `expired`, for the holder too. nil: as long as it is kept alive.
    public var maxDragDuration: DispatchTimeInterval? = .seconds(120)
    /// How long the holder of an expired drag may not pick any of its items up again
    /// (`drag.start` is `rejected` `rate-limited` meanwhile): the time the others get to
    /// move them, which an immediate new lease would take away.
    public var leaseCooldown: DispatchTimeInterval = .seconds(10)
    /// Boards the store may hold; creating one more is refused (HTTP 507). nil: no limit.
    public var maxBoards: Int? = 10_000
    /// Items one board may hold; an insert past it is `rejected` `invalid`, and a new board
    /// with more is refused (HTTP 400). nil: no limit.
    public var maxItemsPerBoard: Int? = 10_000
    /// Collections one board may hold; a `collection.add` past it is `rejected` `invalid`, and
    /// a new board with more is refused (HTTP 400). nil: no limit.
    public var maxCollectionsPerBoard: Int? = 1_000
    /// With a shared store: another node not heard from for this long (heartbeats come every
    /// 2 s) is gone, and the drags of its members end with reason `left`.
    public var nodeTimeout: Double = 7
    /// The hub's time (`HubClock`): every deadline of its rooms, drags and nodes is read and
    /// scheduled through it. The real clock by default; a test passes one whose time it advances.
    public var clock: any HubClock = DispatchClock()

    public init() {}

    /// A byte rate with bursts of four seconds' worth.
    public static func byteRate(perSecond bytes: Int) -> RateLimit {
        RateLimit(perSecond: Double(bytes), burst: 4 * Double(bytes))
    }

    /// The answer to an operation over `operationRate`.
    func rateLimitedRejection(_ opId: OperationID) -> Rejection {
        let rate = operationRate.map { "\(Int($0.perSecond))" } ?? "the allowed number of"
        return Rejection(opId: opId, code: .rateLimited, message: "more than \(rate) operations per second; retry the same opId shortly")
    }

    /// The answer to an operation over `operationByteRate`.
    func byteRateLimitedRejection(_ opId: OperationID) -> Rejection {
        let rate = operationByteRate.map { "\(Int($0.perSecond))" } ?? "the allowed number of"
        return Rejection(
            opId: opId, code: .rateLimited, message: "more than \(rate) bytes of operations per second; retry the same opId shortly")
    }
}
