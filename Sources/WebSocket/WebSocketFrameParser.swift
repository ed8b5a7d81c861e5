import Sockets

/// A resumable frame parser: bytes from `read(2)` in, frames out, no socket involved.
///
/// Each `parseStep` consumes one part of a frame (header, extended length, masking key,
/// payload) or reports that it needs more bytes. Control frames come out whole. A data
/// frame whose payload is still arriving comes out in pieces as its bytes arrive: the first
/// piece keeps the frame's opcode and RSV1, later pieces are continuations, and only the last
/// piece carries the frame's FIN. At the message level that is the same message, so nothing
/// downstream needs to know; in exchange, invalid UTF-8 is caught on the first bad byte even
/// inside one large frame, and a large frame is never held twice.
public struct WebSocketFrameParser: Sendable {
    public enum Role: Sendable {
        /// Receives client frames, which must be masked.
        case server
        /// Receives server frames, which must not be masked.
        case client
    }

    public let role: Role
    /// Frames longer than this fail the connection with 1009 as soon as their header arrives.
    public var maxFrameSize: Int
    /// RSV1 is allowed (on data frames) when an extension such as permessage-deflate uses it.
    public var allowsRSV1 = false

    private struct Header {
        var fin: Bool
        var rsv1: Bool
        var opcode: WebSocketOpcode
        var masked: Bool
        var length: Int
        var mask: UInt32 = 0
    }

    private enum State {
        case header
        case extendedLength(Header, byteCount: Int)
        case maskingKey(Header)
        /// `delivered` payload bytes of the frame have already come out as pieces.
        case payload(Header, delivered: Int)
    }

    private enum Step {
        case needMoreData
        case progressed
        case frame(WebSocketFrame)
    }

    private var state = State.header
    private var input = InputBuffer(retainedCapacity: 256 * 1024)

    public init(role: Role, maxFrameSize: Int = 1 << 20) {
        self.role = role
        self.maxFrameSize = maxFrameSize
    }

    public var bufferedByteCount: Int { input.count }

    public mutating func append(_ bytes: UnsafeRawBufferPointer) { input.append(bytes) }

    public mutating func append<Bytes: Sequence<UInt8>>(_ bytes: Bytes) { input.append(bytes) }

    /// The next frame (or frame piece), or nil when more bytes are needed.
    public mutating func next() throws(WebSocketError) -> WebSocketFrame? {
        while true {
            switch try parseStep() {
            case .needMoreData:
                // Everything read was parsed: give the storage back, since an idle connection
                // would otherwise keep its last read's bytes (one small allocation per read
                // is nothing next to the read itself).
                if input.count == 0 { input.release() }
                return nil
            case .progressed: continue
            case .frame(let frame): return frame
            }
        }
    }

    private mutating func parseStep() throws(WebSocketError) -> Step {
        switch state {
        case .header:
            guard bufferedByteCount >= 2 else { return .needMoreData }
            let first = input.bytes[input.start], second = input.bytes[input.start + 1]
            input.start += 2
            let header = try parseHeader(first, second)
            switch second & 0x7F {
            case 126: state = .extendedLength(header, byteCount: 2)
            case 127: state = .extendedLength(header, byteCount: 8)
            default: state = try afterLength(header)
            }
            return .progressed

        case .extendedLength(var header, let byteCount):
            guard bufferedByteCount >= byteCount else { return .needMoreData }
            var length: UInt64 = 0
            for index in 0..<byteCount { length = length << 8 | UInt64(input.bytes[input.start + index]) }
            input.start += byteCount
            if length >> 63 != 0 { throw .lengthHighBitSet }
            header.length = Int(length)
            state = try afterLength(header)
            return .progressed

        case .maskingKey(var header):
            guard bufferedByteCount >= 4 else { return .needMoreData }
            header.mask = input.bytes[input.start..<input.start + 4].reduce(0) { $0 << 8 | UInt32($1) }
            input.start += 4
            state = .payload(header, delivered: 0)
            return .progressed

        case .payload(let header, let delivered):
            let remaining = header.length - delivered
            let available = min(remaining, bufferedByteCount)
            if available < remaining && (header.opcode.isControl || available == 0) { return .needMoreData }
            var payload = Array(input.bytes[input.start..<input.start + available])
            input.start += available
            if header.masked { Self.unmask(&payload, key: header.mask, offset: delivered) }
            let complete = available == remaining
            let piece = WebSocketFrame(
                fin: complete && header.fin,
                rsv1: delivered == 0 && header.rsv1,
                opcode: delivered == 0 ? header.opcode : .continuation,
                payload: payload)
            state = complete ? .header : .payload(header, delivered: delivered + available)
            return .frame(piece)
        }
    }

    private func parseHeader(_ first: UInt8, _ second: UInt8) throws(WebSocketError) -> Header {
        guard let opcode = WebSocketOpcode(rawValue: first & 0x0F) else { throw .reservedOpcode(first & 0x0F) }
        let fin = first & 0x80 != 0
        let rsv1 = first & 0x40 != 0
        if first & 0x30 != 0 || (rsv1 && (!allowsRSV1 || opcode.isControl)) { throw .reservedBitsSet }
        let masked = second & 0x80 != 0
        switch role {
        case .server where !masked: throw .unmaskedClientFrame
        case .client where masked: throw .maskedServerFrame
        default: break
        }
        let length = Int(second & 0x7F)
        if opcode.isControl {
            if !fin { throw .fragmentedControlFrame }
            if length > 125 { throw .controlFrameTooLong }
        }
        return Header(fin: fin, rsv1: rsv1, opcode: opcode, masked: masked, length: length)
    }

    private func afterLength(_ header: Header) throws(WebSocketError) -> State {
        guard header.length <= maxFrameSize else { throw .frameTooLarge(maxFrameSize) }
        return header.masked ? .maskingKey(header) : .payload(header, delivered: 0)
    }

    /// XORs with the masking key, starting `offset` bytes into the frame's payload.
    /// Eight bytes at a time: unmasking is on the path of every byte a client sends.
    static func unmask(_ payload: inout [UInt8], key: UInt32, offset: Int) {
        let keyBytes: [UInt8] = [UInt8(key >> 24), UInt8(key >> 16 & 0xFF), UInt8(key >> 8 & 0xFF), UInt8(key & 0xFF)]
        var rotated = [UInt8](repeating: 0, count: 8)
        for index in 0..<8 { rotated[index] = keyBytes[(offset + index) & 3] }
        let wide = rotated.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
        payload.withUnsafeMutableBytes { raw in
            var index = 0
            while index + 8 <= raw.count {
                let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self) ^ wide
                raw.storeBytes(of: word, toByteOffset: index, as: UInt64.self)
                index += 8
            }
            while index < raw.count {
                raw[index] ^= rotated[index & 7]
                index += 1
            }
        }
    }
}
