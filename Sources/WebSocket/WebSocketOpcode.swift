/// RFC 6455 §5.2 opcodes. Values 3–7 and 11–15 are reserved: receiving one fails the connection.
public enum WebSocketOpcode: UInt8, Sendable {
    case continuation = 0x0
    case text = 0x1
    case binary = 0x2
    case close = 0x8
    case ping = 0x9
    case pong = 0xA

    /// Close, ping and pong: never fragmented, at most 125 bytes, allowed between fragments.
    public var isControl: Bool { rawValue & 0x8 != 0 }
}
