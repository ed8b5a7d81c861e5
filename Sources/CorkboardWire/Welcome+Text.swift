import CorkboardModel

extension Welcome {
    /// The `welcome` as JSON text with `board` as its board (nil: a resumed welcome, which has
    /// none): written before and shared by every join at that board and seq, so only the
    /// member's own part (client, name, role, peers, count, token expiry) is written here. The same JSON as
    /// `WireFormat.text` of this welcome with that board (keys sorted).
    public func text(board encoded: EncodedBoard?) -> String {
        String(decoding: written(board: encoded, peers: EncodedPeerList(peers)), as: UTF8.self)
    }

    /// The `welcome`'s UTF-8 JSON with `board` and `peers` as given, written before: only the
    /// member's own part is written here (its `peers` must be empty: they are given written),
    /// and the bytes go to the link as they are, with no `String` made of them on the way.
    /// The same bytes as `text(board:)` of this welcome with those peers.
    public func bytes(board encoded: EncodedBoard?, peers encodedPeers: EncodedPeerList) -> [UInt8] {
        precondition(peers.isEmpty, "a welcome's peers are given written, not as values")
        return written(board: encoded, peers: encodedPeers)
    }

    private func written(board encoded: EncodedBoard?, peers encodedPeers: EncodedPeerList) -> [UInt8] {
        precondition(board == nil, "a welcome's board is given written, not as a value")
        var json = JSONWriter(capacity: 256 + (encoded?.bytes.count ?? 0) + encodedPeers.bytes.count)
        json.openObject()
        if let encoded {
            json.key("board")
            json.raw(encoded.bytes)
        }
        json.key("client")
        json.string(client)
        json.key("count")
        json.int(count)
        json.key("epoch")
        json.string(epoch)
        if let hue {
            json.key("hue")
            json.int(Int(hue))
        }
        if let name {
            json.key("name")
            json.string(name)
        }
        json.key("peers")
        json.raw(encodedPeers.bytes)
        json.key("resumed")
        json.bool(resumed)
        json.key("role")
        json.string(role.rawValue)
        json.key("seq")
        json.int(seq)
        if let tokenExpiresAt {
            json.key("tokenExpiresAt")
            json.int(tokenExpiresAt)
        }
        json.key("type")
        json.string("welcome")
        json.closeObject()
        return json.bytes
    }
}
