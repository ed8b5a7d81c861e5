import CorkboardModel
import CorkboardWire

/// The membership changes of a room waiting for its next tick (docs/protocol.md#peers): on a
/// board past `MembershipLimits.listedPeers` peers, joins and leaves are told once a tick, in
/// one `peers` message encoded once, so a join storm costs each member one message a tick
/// rather than one per join. Confined to its room's queue.
struct MembershipTick {
    /// Whether a tick is scheduled: while it is, every change waits for it, so that the
    /// order of joins and leaves is kept.
    var isScheduled = false
    private var joined: [PeerName] = []
    /// Those of `joined` still on the board (one who joins and leaves in a tick is not told).
    private var stillJoined: Set<ClientID> = []
    private var left: [ClientID] = []

    mutating func join(_ peer: PeerName) {
        joined.append(peer)
        stillJoined.insert(peer.client)
    }

    mutating func leave(_ client: ClientID) {
        if stillJoined.remove(client) == nil { left.append(client) }
    }

    /// Every change of the tick, none cut (what this node tells the other nodes), and a fresh tick.
    mutating func takeAll() -> (joined: [PeerName], left: [ClientID]) {
        defer { self = MembershipTick() }
        return (joined.filter { stillJoined.contains($0.client) }, left)
    }

    /// The tick's message and a fresh tick. A tick of more joins or more leaves than the
    /// bound names none of them, only `count`: fifty names of a storm's thousands tell a
    /// member nothing it can use (its list is stale either way), and during a restart under a
    /// board of 5,000 those names were 92 % of all bytes sent (`corkboard-bench restart`).
    mutating func flush(count: Int) -> PeersChange? {
        defer { self = MembershipTick() }
        let joined = joined.filter { stillJoined.contains($0.client) }
        guard !joined.isEmpty || !left.isEmpty else { return nil }
        let bound = MembershipLimits.listedPeers
        guard joined.count <= bound && left.count <= bound else { return PeersChange(count: count, joined: [], left: [], truncated: true) }
        return PeersChange(count: count, joined: joined, left: left, truncated: false)
    }
}
