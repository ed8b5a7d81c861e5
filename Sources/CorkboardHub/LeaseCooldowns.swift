import CorkboardModel

/// Items whose drag expired, kept from whoever held them for a while
/// (docs/protocol.md#6-presence-drag-state): without it, a holder that answers its own
/// `drag.cleared` `expired` with a new `drag.start` holds the items for ever, and the
/// promise that expired items are free for everyone's moves is never kept.
///
/// A holder is named by several keys (`Member.leaseHolders`: its connection, its token, the
/// `by` its token names), so joining again under the same token or user does not start
/// afresh. Per node: a holder reconnecting to another node of a cluster is not known there.
/// Time is passed in (nanoseconds of uptime), so this is a plain value to test.
struct LeaseCooldowns {
    private struct Entry {
        let holders: Set<String>
        let items: Set<ItemID>
        let until: UInt64
    }

    /// At most one entry per drag expired within the last cool-down: bounded by the members.
    private var entries: [Entry] = []

    /// The drag of `items` by `holders` expired at `now`: they may not lease any of them
    /// again before `until`.
    mutating func expired(_ items: [ItemID], heldBy holders: Set<String>, now: UInt64, until: UInt64) {
        entries.removeAll { $0.until <= now }
        entries.append(Entry(holders: holders, items: Set(items), until: until))
    }

    /// Nanoseconds until one of `holders` may lease all of `items`; nil when it may now.
    mutating func wait(before items: [ItemID], by holders: Set<String>, now: UInt64) -> UInt64? {
        entries.removeAll { $0.until <= now }
        let blocking = entries.filter { !$0.holders.isDisjoint(with: holders) && items.contains(where: $0.items.contains) }
        return blocking.map(\.until).max().map { $0 - now }
    }
}
