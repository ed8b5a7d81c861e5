/// Why a connection is failed. `closeCode` is the one place errors map to close codes.
public enum WebSocketError: Error, Equatable, Sendable {
    case reservedOpcode(UInt8)
    case reservedBitsSet
    case unmaskedClientFrame
    case maskedServerFrame
    case fragmentedControlFrame
    case controlFrameTooLong
    case lengthHighBitSet
    case unexpectedContinuation
    case expectedContinuation
    case invalidClosePayload
    case invalidCloseCode(UInt16)
    case invalidUTF8
    case frameTooLarge(Int)
    case messageTooLarge(Int)
    case binaryNotAccepted
    case compression(String)

    public var closeCode: WebSocketCloseCode {
        // No `default`: a new error must be given its code here, not fall into 1002.
        switch self {
        case .invalidUTF8, .compression:
            return .invalidPayload
        case .frameTooLarge, .messageTooLarge:
            return .messageTooBig
        case .binaryNotAccepted:
            return .unsupportedData
        case .reservedOpcode, .reservedBitsSet, .unmaskedClientFrame, .maskedServerFrame, .fragmentedControlFrame,
            .controlFrameTooLong, .lengthHighBitSet, .unexpectedContinuation, .expectedContinuation,
            .invalidClosePayload, .invalidCloseCode:
            return .protocolError
        }
    }

    /// A short reason for the close frame (at most 123 bytes).
    public var reason: String {
        switch self {
        case .reservedOpcode(let code): return "reserved opcode \(code)"
        case .reservedBitsSet: return "reserved bits set without an extension"
        case .unmaskedClientFrame: return "client frames must be masked"
        case .maskedServerFrame: return "server frames must not be masked"
        case .fragmentedControlFrame: return "control frames must not be fragmented"
        case .controlFrameTooLong: return "control frame over 125 bytes"
        case .lengthHighBitSet: return "64-bit length with the high bit set"
        case .unexpectedContinuation: return "continuation without a message"
        case .expectedContinuation: return "new message before the last one ended"
        case .invalidClosePayload: return "close payload of 1 byte"
        case .invalidCloseCode(let code): return "invalid close code \(code)"
        case .invalidUTF8: return "invalid UTF-8"
        case .frameTooLarge(let limit): return "frame over \(limit) bytes"
        case .messageTooLarge(let limit): return "message over \(limit) bytes"
        case .binaryNotAccepted: return "binary messages are not accepted"
        case .compression(let detail): return "compressed data: \(detail)"
        }
    }
}
