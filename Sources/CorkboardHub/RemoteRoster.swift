import CorkboardModel
import CorkboardWire

/// What a room knows of the peers of other nodes (a store shared by several nodes), from
/// their `NodeMembership` messages: it turns each message into the peers that joined and left
/// here, so the room lists and announces them like its own. Pure: no queue, no store, no
/// sockets. Confined to its room's queue like the member table.
struct RemoteRoster {
    /// The peers of other nodes, by client.
    private(set) var peers: [ClientID: ListedPeer] = [:]
    /// Nodes whose whole list this room has had (their changes since then are all here).
    private var listed: Set<String> = []
    /// Nodes asked for their list and not answered yet: asked once.
    private var asked: Set<String> = []
    /// Lists arriving in parts: the clients of each so far.
    private var arriving: [String: Set<ClientID>] = [:]

    /// What one message changed.
    struct Changes {
        var joined: [ListedPeer] = []
        var left: [ListedPeer] = []
        /// A change came from a node whose list this room never had (it missed messages):
        /// that node is to be asked for its list.
        var askNode: String?
        /// The node's whole list came.
        var listedNode: String?
    }

    /// Applies a message from another node; `order` gives a new peer its join order here.
    mutating func apply(_ message: NodeMembership, order: () -> Int) -> Changes {
        var changes = Changes()
        let node = message.node
        if message.reset { arriving[node] = [] }
        for peer in message.joined {
            arriving[node]?.insert(peer.client)
            guard peers[peer.client] == nil else { continue }
            let listed = ListedPeer(client: peer.client, name: peer.name, hue: peer.hue, order: order(), node: node)
            peers[peer.client] = listed
            changes.joined.append(listed)
        }
        for client in message.left {
            if let gone = peers.removeValue(forKey: client) { changes.left.append(gone) }
        }
        if let list = arriving[node], !message.more {
            // The whole list: whoever of that node is not on it left.
            arriving[node] = nil
            for (client, peer) in peers where peer.node == node && !list.contains(client) {
                peers[client] = nil
                changes.left.append(peer)
            }
            changes.left.sort { $0.order < $1.order }
            listed.insert(node)
            asked.remove(node)
            changes.listedNode = node
        } else if arriving[node] == nil && !listed.contains(node) && !asked.contains(node) {
            asked.insert(node)
            changes.askNode = node
        }
        return changes
    }

    /// A node stopped beating: its peers left.
    mutating func nodeGone(_ node: String) -> [ListedPeer] {
        listed.remove(node)
        asked.remove(node)
        arriving[node] = nil
        let gone = peers.values.filter { $0.node == node }
        for peer in gone { peers[peer.client] = nil }
        return gone.sorted { $0.order < $1.order }
    }
}
