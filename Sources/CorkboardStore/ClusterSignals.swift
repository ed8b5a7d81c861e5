import CorkboardModel

/// What a store shared by several server nodes (PostgreSQL) adds to `BoardStore`: hearing
/// the other nodes, talking to them, and leasing items and columns across them. A store of one node
/// (memory, SQLite) does not adopt it, and the hub then does all of this in the room alone.
///
/// Such a store announces every `deleteBoard` to all the nodes (the deleting one included) as
/// `StoreSignal.deleted`, from the same transaction as the delete: whichever node served
/// the `DELETE`, the board's members on every node are sent away.
///
/// Kept apart from `BoardStore` because it is not persistence: a new store is judged by the
/// contract suite alone, and only a store that really has other nodes speaks for them.
public protocol ClusterSignals: AnyObject, Sendable {
    /// This node's name among those sharing the store (new at every start).
    var nodeName: String { get }

    /// Hears other nodes through the shared store: their commits and drags, and when to catch
    /// up. Called on a queue of the store's.
    func observe(_ handler: @escaping @Sendable (StoreSignal) -> Void)

    /// Sends a presence message to every node sharing the store (itself included), unstored.
    func publish(presence payload: String)

    /// Leases `items` of `board` to `holder` across nodes (replacing what it held there):
    /// nil when granted, or the holder of one of them.
    func lease(
        board: String, items: [ItemID], holder: ClientID,
        _ completion: @escaping @Sendable (Result<ClientID?, StoreError>) -> Void)

    /// Leases the columns `columns` of `board` to `holder` across nodes, as `lease(board:items:holder:)`
    /// does items (replacing whatever it held there, items or columns). A column's lease is
    /// not an item's of the same id.
    func lease(
        board: String, columns: [CollectionID], holder: ClientID,
        _ completion: @escaping @Sendable (Result<ClientID?, StoreError>) -> Void)

    /// Gives back everything `holder` leased on `board`, items and columns.
    func releaseLeases(board: String, holder: ClientID)

    /// What `holder` holds on `board` now, items or columns: how a node that missed the start
    /// of another node's drag (or whose start was too long for one notice) learns what it
    /// holds. Empty when nothing.
    func leases(
        board: String, holder: ClientID,
        _ completion: @escaping @Sendable (Result<HeldLeases, StoreError>) -> Void)
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
    /// `board`, in the life that began with `epoch`, was deleted (by any node): rooms of that
    /// board and epoch send their members away and unload. The epoch keeps a board created
    /// anew under the same id meanwhile from being taken for the deleted one.
    case deleted(board: String, epoch: String)
    /// `board`, in the life that began with `epoch`, was replaced by an import (by any node):
    /// rooms of that board and epoch close their members to join again (they find the new
    /// board) and unload.
    case replaced(board: String, epoch: String)
    /// A node's heartbeat: it lives (a node not heard from for a while is gone, and so
    /// are its members' drags).
    case nodeAlive(String)
    /// A node stops cleanly: its members and drags go now, not when its heartbeats are missed.
    case nodeStopping(String)
    /// A node revoked tokens or took a revocation back: every node reads them again and
    /// disconnects the members whose token is revoked now.
    case revocationsChanged
}
