/// Turns frames (or frame pieces) into messages: fragmentation, interleaved control frames,
/// incremental UTF-8 validation of text, the message size limit, and inflation of compressed
/// messages through the negotiated extension.
public struct WebSocketMessageAssembler {
    public enum Output: Equatable {
        case message(WebSocketMessage)
        case control(WebSocketFrame)
    }

    public var maxMessageSize: Int
    /// Set when permessage-deflate (or another compressing extension) was negotiated.
    public var compression: WebSocketMessageCompression?

    private var opcode: WebSocketOpcode?
    private var compressed = false
    private var payload: [UInt8] = []
    private var validator = UTF8Validator()

    public init(maxMessageSize: Int = 1 << 20, compression: WebSocketMessageCompression? = nil) {
        self.maxMessageSize = maxMessageSize
        self.compression = compression
    }

    public mutating func receive(_ frame: WebSocketFrame) throws(WebSocketError) -> Output? {
        if frame.opcode.isControl { return .control(frame) }
        if frame.opcode == .continuation {
            guard opcode != nil else { throw .unexpectedContinuation }
            if frame.rsv1 { throw .reservedBitsSet }
        } else {
            guard opcode == nil else { throw .expectedContinuation }
            if frame.rsv1 && compression == nil { throw .reservedBitsSet }
            opcode = frame.opcode
            compressed = frame.rsv1
            payload = []
            validator = UTF8Validator()
        }
        var bytes = frame.payload
        if compressed, let compression {
            do {
                bytes = try compression.decompress(bytes, isFinal: frame.fin, limit: maxMessageSize - payload.count)
            } catch .messageTooLarge {
                throw .messageTooLarge(maxMessageSize)
            }
        }
        guard payload.count + bytes.count <= maxMessageSize else { throw .messageTooLarge(maxMessageSize) }
        if opcode == .text && !validator.validate(bytes) { throw .invalidUTF8 }
        payload += bytes
        guard frame.fin else { return nil }
        defer {
            opcode = nil
            payload = []
        }
        if opcode == .text {
            guard validator.isComplete else { throw .invalidUTF8 }
            return .message(.text(String(decoding: payload, as: UTF8.self)))
        }
        return .message(.binary(payload))
    }
}
