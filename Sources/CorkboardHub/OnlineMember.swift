import CorkboardModel

/// Someone on a board now, as this node knows it (the operator's view, `GET /api/admin/overview`):
/// a member connected here, or a peer of another node sharing the store that this node's room
/// heard of (`NodeMembership`).
public struct OnlineMember: Sendable, Hashable {
    public let client: ClientID
    /// The name it joined with (`hello.name`, or the token's).
    public let name: String
    /// Who its commits are by (a signed token's `sub`, a token-file grant's name, else its
    /// own); nil for another node's peer, which only its own node knows.
    public let user: String?
    /// Nil for another node's peer (its role travels no further than its node).
    public let role: Role?
    /// The node it is connected to; nil when it is this one.
    public let node: String?
    /// Follows the board without being a peer (`"observe": true`, an event stream).
    public let observes: Bool
}

/// A board open on this node (loaded, with a room) and who is on it.
public struct OnlineBoard: Sendable, Hashable {
    public let board: String
    /// This node's members first (in join order), then other nodes' peers.
    public let members: [OnlineMember]
}
