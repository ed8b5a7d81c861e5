/// A session's per-connection rate budgets (`HubConfiguration`'s rates), made at its first
/// metered message rather than at its connection: a member that joins and goes quiet never
/// holds them (six optional buckets, about 240 bytes of every idle member).
///
/// Made late they hold what they would have held: a bucket starts full and never fills past
/// full, so one made at its first use is the one made at the connection's start and left
/// untouched until then.
///
/// Confined to its session's queue like the session.
final class SessionBudgets {
    var operation: TokenBucket?
    var operationBytes: TokenBucket?
    /// The bytes of the `peers.page` answers sent to this connection, at the operations' byte
    /// rate but in a budget of their own (paging never delays a move): a 40-byte request must
    /// not make the server send without bound (issue #31).
    var peersPageBytes: TokenBucket?
    var presence: TokenBucket?
    var ping: TokenBucket?
    /// The items this connection's drag starts may name: `maxDragItems` a second.
    var dragItems: TokenBucket?
    /// The latest `drag.over` that found no presence token, and whether a flush is scheduled
    /// for it: kept here, since only a session that spends its budget has one.
    var waitingDragOver: (collection: String?, index: Int)?
    var dragOverFlushScheduled = false

    init(_ configuration: HubConfiguration, now: UInt64) {
        operation = configuration.operationRate.map { TokenBucket($0, now: now) }
        operationBytes = configuration.operationByteRate.map { TokenBucket($0, now: now) }
        peersPageBytes = configuration.operationByteRate.map { TokenBucket($0, now: now) }
        presence = configuration.presenceRate.map { TokenBucket($0, now: now) }
        ping = configuration.pingRate.map { TokenBucket($0, now: now) }
        dragItems = configuration.maxDragItems.map { TokenBucket(RateLimit(perSecond: Double($0)), now: now) }
    }
}
