/// What a compressing extension (permessage-deflate) plugs into a connection. One instance
/// per connection, used only on its loop.
public protocol WebSocketMessageCompression: AnyObject {
    /// Inflates one frame piece of a compressed message (`isFinal` on its last piece), giving
    /// at most `limit` bytes; more is `WebSocketError.messageTooLarge` (a deflate bomb).
    func decompress(_ piece: [UInt8], isFinal: Bool, limit: Int) throws(WebSocketError) -> [UInt8]
    /// Compresses an outgoing message payload, or nil to send it uncompressed.
    func compress(_ payload: [UInt8]) -> [UInt8]?
    /// When every message is compressed on its own (no context takeover on our side), a key
    /// naming the parameters: connections with equal keys produce identical bytes, so a
    /// broadcast is compressed once per key. Nil when the output depends on this connection's history.
    var sharedEncodingKey: String? { get }
}
