import CorkboardModel
import CorkboardWire

/// One peer in a room's list: a member of this node, or (a store shared by several nodes) a
/// member of another node that this room heard of (`NodeMembership`).
/// Confined to its room's queue like the member table.
final class ListedPeer {
    let client: ClientID
    let name: String
    /// The hue its `hello` chose (docs/protocol.md#colours): two bytes, nil when none.
    let hue: Hue?
    /// Out of the roster. Beside `hue`, in the bytes before `order`'s alignment: declared
    /// after `node` it made the object 89 bytes, an allocation of 112 where 96 suffice.
    var departed = false
    /// Join order as this room saw it: `welcome.peers` lists the latest, `peers.list` pages
    /// by it. A peer of another node takes its order when this room hears of it.
    let order: Int
    /// The member, when it is one of this node's. Strong, though the member holds its entry
    /// too: the cycle is cut when the member leaves (`RoomMembers.remove(_:)`). A weak
    /// reference would give every `Member` a side table, and every retain and release of it
    /// (one per member per broadcast) the runtime's slow path.
    var member: Member?
    /// The node it is connected to, when that is another one.
    let node: String?

    /// As `peers.joined` lists it, and as one node tells another of it.
    var peerName: PeerName { PeerName(client: client, name: name, hue: hue) }

    init(client: ClientID, name: String, hue: Hue? = nil, order: Int, member: Member? = nil, node: String? = nil) {
        self.client = client
        self.name = name
        self.hue = hue
        self.order = order
        self.member = member
        self.node = node
    }
}

/// The peers of a room in join order (observers are not peers), so that the latest ones for
/// a `welcome` and a `peers.list` page cost their length, not the board's size. Leaving
/// marks the entry and the array is compacted once half of it is gone: O(1) amortized.
/// Confined to its room's queue like the member table.
struct PeerRoster {
    private var entries: [ListedPeer] = []
    private var departed = 0

    /// Peers on the board now, of every node.
    private(set) var count = 0
    /// Changes with every join and leave: what a list written from the roster is of (the
    /// `welcome` peers a room keeps, `WelcomePeerLists`). A peer's client and name never
    /// change while it is listed.
    private(set) var version = 0

    mutating func add(_ peer: ListedPeer) {
        entries.append(peer)
        count += 1
        version += 1
    }

    mutating func remove(_ peer: ListedPeer) {
        guard !peer.departed else { return }
        peer.departed = true
        count -= 1
        version += 1
        departed += 1
        if departed > entries.count / 2 {
            entries.removeAll { $0.departed }
            departed = 0
        }
    }

    /// Up to `limit` peers, the latest to join first, skipping those `excluded` says.
    func latest(_ limit: Int, excluding excluded: (ListedPeer) -> Bool) -> [ListedPeer] {
        var found: [ListedPeer] = []
        for peer in entries.reversed() where found.count < limit {
            if !peer.departed && !excluded(peer) { found.append(peer) }
        }
        return found
    }

    /// Up to `limit` peers that joined after the cursor `after` (a join order), oldest first,
    /// and the cursor of the next page (nil: this is the last).
    func page(after: Int?, limit: Int) -> (peers: [ListedPeer], next: Int?) {
        // Join orders grow along the array: the first entry past the cursor is found by halving.
        var (low, high) = (0, entries.count)
        while low < high {
            let middle = (low + high) / 2
            if entries[middle].order <= (after ?? 0) { low = middle + 1 } else { high = middle }
        }
        var peers: [ListedPeer] = []
        var index = low
        while index < entries.count && peers.count < limit {
            if !entries[index].departed { peers.append(entries[index]) }
            index += 1
        }
        let more = entries[index...].contains { !$0.departed }
        return (peers, more ? peers.last?.order : nil)
    }
}
