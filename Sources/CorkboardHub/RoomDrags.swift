import CorkboardModel
import CorkboardWire

/// What a room keeps of drags beyond each member's own `LiveDrag` (docs/protocol.md#6-presence-drag-state):
/// the leases the resolver reads (a move of another's leased item is `busy`), the cool-downs
/// of expired drags, the counter that tells one drag from the next, and the drags of other
/// nodes' members (a shared store) with the reads of their items. The room's part for drag
/// state, with its state its own; the room sends, publishes and schedules. No queue, no time
/// of its own (the room passes its clock's), confined to the room's queue.
///
/// A class, held by its `BoardRoom` with `let` and, like all of the room's state, used only
/// on the room's queue (or by one test): its state is private, changed only through its methods.
final class RoomDrags {
    /// Items held by live drags, of this node's members and of other nodes' (presence: never persisted).
    private(set) var leases = LeaseTable()
    /// Items whose drag expired, kept from their holder for `leaseCooldown`.
    private var cooldowns = LeaseCooldowns()
    /// The same for columns (apart: a card may have a column's id).
    private var columnCooldowns = LeaseCooldowns()
    private var generations = 0
    /// Drags of members of other nodes, by client: their origin node, so that a node gone
    /// silent has its drags ended, and what this room's members were shown.
    private(set) var remote: [ClientID: RemoteDrag] = [:]
    private var lookups = 0

    // MARK: This node's drags

    /// Leases `items` to `client`, unless another client holds one of them: that holder then.
    func lease(_ items: [ItemID], to client: ClientID) -> ClientID? {
        leases.acquire(items, for: client)
    }

    /// Leases `columns` to `client`, unless another client holds one of them: that holder then.
    func lease(columns: [CollectionID], to client: ClientID) -> ClientID? {
        leases.acquire(columns: columns, for: client)
    }

    /// Another client holding one of `columns`, if one does (on this node or, heard of, another).
    func otherHolder(ofColumns columns: [CollectionID], for client: ClientID) -> ClientID? {
        columns.lazy.compactMap { self.leases.holder(ofColumn: $0) }.first { $0 != client }
    }

    /// Gives back whatever `client` holds.
    func release(heldBy client: ClientID) {
        leases.releaseAll(heldBy: client)
    }

    /// The generation of a new drag, which no earlier one of the room has.
    func nextGeneration() -> Int {
        generations += 1
        return generations
    }

    /// Nanoseconds until one of `holders` may lease all of `items` again after a drag of
    /// theirs expired; nil when it may now.
    func coolDown(before items: [ItemID], by holders: Set<String>, now: UInt64) -> UInt64? {
        cooldowns.wait(before: items, by: holders, now: now)
    }

    /// A drag of `items` by `holders` expired at `now`: they may not lease them before `until`.
    func expired(_ items: [ItemID], heldBy holders: Set<String>, now: UInt64, until: UInt64) {
        cooldowns.expired(items, heldBy: holders, now: now, until: until)
    }

    /// As `coolDown(before:by:now:)`, for columns.
    func coolDown(beforeColumns columns: [CollectionID], by holders: Set<String>, now: UInt64) -> UInt64? {
        columnCooldowns.wait(before: columns, by: holders, now: now)
    }

    /// As `expired(_:heldBy:now:until:)`, for a drag of columns.
    func expired(columns: [CollectionID], heldBy holders: Set<String>, now: UInt64, until: UInt64) {
        columnCooldowns.expired(columns, heldBy: holders, now: now, until: until)
    }

    // MARK: Other nodes' drags

    /// A drag of another node's member, as this room knows it.
    func remoteDrag(of client: ClientID) -> RemoteDrag? { remote[client] }

    /// A drag of another node's member began here (its start, or a placeholder move of a
    /// drag this room missed the start of); not shown until its items are known.
    func begin(_ drag: RemoteDrag, ofRemote client: ClientID) {
        remote[client] = drag
    }

    /// Its placeholder moved: true when the drag is shown (its items known), so its members
    /// are told; false when it is not, or not known here at all.
    func move(remote client: ClientID, to over: DragTarget) -> Bool {
        guard remote[client] != nil else { return false }
        remote[client]?.over = over
        return remote[client]?.items != nil
    }

    /// A read of what a remote drag holds starts: its number, which the answer brings back.
    func startLookup(ofRemote client: ClientID) -> Int {
        lookups += 1
        remote[client]?.lookup = lookups
        return lookups
    }

    /// Whether the answer to `lookup` is still wanted: the drag is the same and its items unknown.
    func awaits(_ lookup: Int, ofRemote client: ClientID) -> Bool {
        remote[client]?.lookup == lookup && remote[client]?.items == nil
    }

    /// Forgets a remote drag that holds nothing known (a later placeholder move asks again).
    func forget(remote client: ClientID) {
        remote[client] = nil
    }

    /// The items of a remote drag are known: they count as held here (the origin holds the
    /// store's lease). Its `drag`, for the members.
    func show(_ items: [ItemID], ofRemote client: ClientID) -> DragUpdate? {
        remote[client]?.items = items
        leases.releaseAll(heldBy: client)
        _ = leases.acquire(items, for: client)
        return remote[client]?.update(of: client)
    }

    /// The columns of a remote drag of columns are known: they count as held here (the
    /// origin holds the store's lease). Its `drag`, for the members.
    func show(columns: [CollectionID], ofRemote client: ClientID) -> DragUpdate? {
        remote[client]?.items = []
        remote[client]?.collections = columns
        leases.releaseAll(heldBy: client)
        _ = leases.acquire(columns: columns, for: client)
        return remote[client]?.update(of: client)
    }

    /// Ends a remote drag: its leases here are released; the drag, if there was one.
    func end(remote client: ClientID) -> RemoteDrag? {
        guard let drag = remote.removeValue(forKey: client) else { return nil }
        leases.releaseAll(heldBy: client)
        return drag
    }
}
