import CorkboardModel

/// The byte bound of the peers a `welcome` or a `peers.page` lists (docs/protocol.md#peers-list).
/// Names are short (`Limits.maximumNameBytes`), but a peer that drags lists its drag's items
/// (up to `--max-drag-items` ids), and a 40-byte `peers.list` must not make the server send
/// megabytes (issue #31): so a list ends at a byte budget as well as at a count.
extension MembershipLimits {
    /// The JSON of a list's peers stays within this many bytes (a page lists its first peer
    /// whatever its size, so that paging moves on).
    public static let listedPeerBytes = 32 * 1024

    /// About the most a `peers.page` of `limit` peers without drags takes: what a byte rate
    /// counts a `peers.list` as before the page is written.
    public static func pageByteEstimate(limit: Int) -> Int {
        min(listedPeerBytes, limit * (Limits.maximumNameBytes + 64)) + 128
    }

    /// The leading `peers` whose JSON (with the commas between them) fits in
    /// `listedPeerBytes`; with `atLeastOne`, the first one even when it alone does not.
    public static func fitting(_ peers: [Peer], atLeastOne: Bool) -> [Peer] {
        var bytes = 0
        for (index, peer) in peers.enumerated() {
            bytes += peer.jsonByteCount + (index == 0 ? 0 : 1)
            if bytes > listedPeerBytes { return Array(peers.prefix(atLeastOne ? max(1, index) : index)) }
        }
        return peers
    }
}

extension Peer {
    /// The bytes of this peer's JSON as a list carries it.
    public var jsonByteCount: Int {
        var json = JSONWriter()
        json.write(self)
        return json.bytes.count
    }
}

extension JSONWriter {
    /// `{"client","drag":{"items" or "collections","over"}|null,"hue"?,"name"}`.
    mutating func write(_ peer: Peer) {
        openObject()
        key("client")
        string(peer.client)
        key("drag")
        if let drag = peer.drag {
            openObject()
            if let collections = drag.collections {
                key("collections")
                strings(collections)
            } else {
                key("items")
                strings(drag.items)
            }
            key("over")
            if let over = drag.over { write(over) } else { null() }
            closeObject()
        } else {
            null()
        }
        if let hue = peer.hue {
            key("hue")
            int(Int(hue))
        }
        key("name")
        string(peer.name)
        closeObject()
    }
}
