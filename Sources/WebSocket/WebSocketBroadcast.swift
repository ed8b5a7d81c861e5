import Sockets
import Synchronization

/// One message for many connections, encoded once: the plain frame is shared by every member
/// without compression, and the compressed frame by every member whose compression has the
/// same `sharedEncodingKey` (no context takeover, same window). Only members whose compression
/// depends on their own history compress it themselves.
public final class WebSocketBroadcast: Sendable {
    public let opcode: WebSocketOpcode
    public let payload: [UInt8]
    public let plainFrame: ByteChunk
    /// Compressed frames by key; `nil` value: compression did not pay, send the plain frame.
    private let compressedFrames = Mutex<[String: ByteChunk?]>([:])

    public init(opcode: WebSocketOpcode, payload: [UInt8]) {
        self.opcode = opcode
        self.payload = payload
        plainFrame = ByteChunk(WebSocketFrame(opcode: opcode, payload: payload).encoded())
    }

    public convenience init(text: String) { self.init(opcode: .text, payload: Array(text.utf8)) }

    /// The frame for a member with this compression (called on the member's loop).
    func frame(for compression: WebSocketMessageCompression?) -> ByteChunk {
        guard let compression else { return plainFrame }
        guard let key = compression.sharedEncodingKey else { return frame(compressedBy: compression) }
        if let cached = compressedFrames.withLock({ $0[key] }) { return cached ?? plainFrame }
        // Two loops may race to fill the same key; both results are identical, one is kept.
        let compressed = compression.compress(payload).map { ByteChunk(WebSocketFrame(rsv1: true, opcode: opcode, payload: $0).encoded()) }
        compressedFrames.withLock { $0[key] = compressed }
        return compressed ?? plainFrame
    }

    private func frame(compressedBy compression: WebSocketMessageCompression) -> ByteChunk {
        guard let compressed = compression.compress(payload) else { return plainFrame }
        return ByteChunk(WebSocketFrame(rsv1: true, opcode: opcode, payload: compressed).encoded())
    }
}
