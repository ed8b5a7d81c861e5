import CorkboardModel

/// Someone's editing mark as this client last heard it (docs/protocol.md#editing-marks): the
/// item whose label they are editing. A mark holds nothing: it only says who is at work where.
public struct PeerEditing: Sendable, Hashable {
    public var client: ClientID
    public var name: String
    public var item: ItemID

    public init(client: ClientID, name: String, item: ItemID) {
        self.client = client
        self.name = name
        self.item = item
    }
}
