import Sockets

/// One frame (or, from the parser, one piece of a frame: see `WebSocketFrameParser`).
/// The payload is unmasked.
public struct WebSocketFrame: Equatable, Sendable {
    public var fin: Bool
    /// RSV1: "compressed" under permessage-deflate; only on the first frame of a message.
    public var rsv1: Bool
    public var opcode: WebSocketOpcode
    public var payload: [UInt8]

    public init(fin: Bool = true, rsv1: Bool = false, opcode: WebSocketOpcode, payload: [UInt8] = []) {
        self.fin = fin
        self.rsv1 = rsv1
        self.opcode = opcode
        self.payload = payload
    }

    /// The bytes on the wire. Servers send unmasked frames (`maskingKey` nil), so one
    /// encoding serves every receiver; clients must pass a fresh random key per frame.
    public func encoded(maskingKey: (UInt8, UInt8, UInt8, UInt8)? = nil) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(payload.count + 14)
        bytes.append((fin ? 0x80 : 0) | (rsv1 ? 0x40 : 0) | opcode.rawValue)
        let maskBit: UInt8 = maskingKey == nil ? 0 : 0x80
        switch payload.count {
        case 0...125:
            bytes.append(maskBit | UInt8(payload.count))
        case 126...0xFFFF:
            bytes.append(maskBit | 126)
            bytes.append(UInt8(payload.count >> 8))
            bytes.append(UInt8(payload.count & 0xFF))
        default:
            bytes.append(maskBit | 127)
            for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8((payload.count >> shift) & 0xFF)) }
        }
        guard let key = maskingKey else {
            bytes += payload
            return bytes
        }
        let mask = [key.0, key.1, key.2, key.3]
        bytes += mask
        for (index, byte) in payload.enumerated() { bytes.append(byte ^ mask[index & 3]) }
        return bytes
    }

    /// The unmasked frame (a server's) written straight into the chunk a connection queues:
    /// the header, then one copy of the payload, where `encoded()` and a chunk of it copy the
    /// payload twice. The same bytes as `encoded()`.
    public func encodedChunk() -> ByteChunk {
        let count = payload.count
        let header = count <= 125 ? 2 : count <= 0xFFFF ? 4 : 10
        return ByteChunk(count: header + count) { memory in
            memory[0] = (fin ? 0x80 : 0) | (rsv1 ? 0x40 : 0) | opcode.rawValue
            switch header {
            case 2:
                memory[1] = UInt8(count)
            case 4:
                memory[1] = 126
                memory[2] = UInt8(count >> 8)
                memory[3] = UInt8(count & 0xFF)
            default:
                memory[1] = 127
                for index in 0..<8 { memory[2 + index] = UInt8((count >> (56 - 8 * index)) & 0xFF) }
            }
            payload.withUnsafeBytes { source in
                UnsafeMutableRawBufferPointer(rebasing: memory[header...]).copyMemory(from: source)
            }
        }
    }
}
