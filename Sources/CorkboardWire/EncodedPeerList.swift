import CorkboardModel

/// A `welcome`'s `peers` as JSON (the array, in the form `Welcome.text` writes it), written
/// once and spliced into every `welcome` while the room's list stays the same: the peers of
/// a board nobody drags on change only when somebody joins or leaves, so a storm of joins
/// writes them once per join of the storm instead of once per join for every joiner (issue #36).
public struct EncodedPeerList: Sendable, Equatable {
    public let bytes: [UInt8]

    /// The leading `peers` whose JSON fits in `MembershipLimits.listedPeerBytes`, as
    /// `MembershipLimits.fitting(peers, atLeastOne: false)` keeps them, each written once (not
    /// once to count its bytes and again for the list).
    public init(fitting peers: [Peer]) {
        var json = JSONWriter(capacity: 64 + peers.count * 48)
        json.openArray()
        var listed = 0
        for (index, peer) in peers.enumerated() {
            var one = JSONWriter(capacity: 64)
            one.write(peer)
            listed += one.bytes.count + (index == 0 ? 0 : 1)
            if listed > MembershipLimits.listedPeerBytes { break }
            json.raw(one.bytes)
        }
        json.closeArray()
        bytes = json.bytes
    }

    public init(_ peers: [Peer]) {
        var json = JSONWriter(capacity: 64 + peers.count * 48)
        json.openArray()
        for peer in peers { json.write(peer) }
        json.closeArray()
        bytes = json.bytes
    }
}
