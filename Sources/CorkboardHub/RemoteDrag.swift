import CorkboardModel
import CorkboardWire

/// A drag of another node's member, as this room knows it (a shared store).
struct RemoteDrag {
    /// The origin node: when it stops beating, the drag ends as `left`.
    let node: String
    let name: String
    /// Nil while its items are being read from the store's leases (this room missed the
    /// drag's start, or the start was too long to carry them); until then the drag is not
    /// shown, and `lookup` tells that reading from a later one.
    var items: [ItemID]?
    /// The columns of a drag of columns (its `items` then empty).
    var collections: [CollectionID]? = nil
    var over: DragTarget?
    var lookup = 0

    /// Its `drag` message, once its items are known.
    func update(of client: ClientID) -> DragUpdate? {
        items.map { DragUpdate(client: client, name: name, items: $0, collections: collections, over: over) }
    }
}
