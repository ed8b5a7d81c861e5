import CorkboardModel

/// `{"type":"peers","count","joined":[{"client","name"}],"left":[client…],"truncated"}`: the
/// membership changes of one tick (docs/protocol.md#peers), encoded once for every member.
/// `count` is the number of peers on the board after them; `truncated` says some changes
/// are counted but not listed (more than the list bound joined or left in the tick).
public struct PeersChange: Sendable, Hashable, Codable {
    public var count: Int
    public var joined: [PeerName]
    public var left: [ClientID]
    public var truncated: Bool

    public init(count: Int, joined: [PeerName], left: [ClientID], truncated: Bool) {
        self.count = count
        self.joined = joined
        self.left = left
        self.truncated = truncated
    }
}

/// `{"client","name","hue"?}`: a peer as `peers.joined` lists it, and as one node tells
/// another of its members (the synthesized coding leaves out a nil hue).
public struct PeerName: Sendable, Hashable, Codable {
    public var client: ClientID
    public var name: String
    public var hue: Hue?

    public init(client: ClientID, name: String, hue: Hue? = nil) {
        self.client = client
        self.name = name
        self.hue = hue
    }
}

/// `{"type":"peers.page","count","peers":[…],"next":cursor|null}`: the answer to
/// `peers.list` (docs/protocol.md#peers-list), peers in join order from the cursor on.
public struct PeersPage: Sendable, Hashable, Codable {
    public var count: Int
    public var peers: [Peer]
    /// What the next `peers.list` passes as `after`; null on the last page.
    public var next: Int?

    public init(count: Int, peers: [Peer], next: Int?) {
        self.count = count
        self.peers = peers
        self.next = next
    }

    private enum CodingKeys: String, CodingKey { case count, peers, next }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(count, forKey: .count)
        try container.encode(peers, forKey: .peers)
        try container.encode(next, forKey: .next)
    }
}

/// The bounds of membership lists (docs/protocol.md#peers).
public enum MembershipLimits {
    /// Peers a `welcome` lists, and names a `peers` message lists per direction: a board of
    /// up to this many peers is listed in full.
    public static let listedPeers = 50
    /// The largest `peers.list` page, and the page given without `limit`.
    public static let maximumPage = 200
    public static let defaultPage = 100
}
