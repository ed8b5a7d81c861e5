/// The body of a close frame: an optional code and a UTF-8 reason.
public struct WebSocketClosePayload: Equatable, Sendable {
    public var code: WebSocketCloseCode?
    public var reason: String

    public init(code: WebSocketCloseCode?, reason: String = "") {
        self.code = code
        self.reason = reason
    }

    public init(parsing payload: [UInt8]) throws(WebSocketError) {
        if payload.isEmpty {
            self.init(code: nil)
            return
        }
        guard payload.count >= 2 else { throw .invalidClosePayload }
        let code = WebSocketCloseCode(rawValue: UInt16(payload[0]) << 8 | UInt16(payload[1]))
        guard code.isValidOnTheWire else { throw .invalidCloseCode(code.rawValue) }
        let reason = payload[2...]
        guard UTF8Validator.isValid(reason) else { throw .invalidUTF8 }
        self.init(code: code, reason: String(decoding: reason, as: UTF8.self))
    }

    /// The payload bytes; the reason is cut (on a character boundary) to fit 125 bytes.
    public var bytes: [UInt8] {
        guard let code else { return [] }
        var reasonBytes: [UInt8] = []
        for character in reason {
            let next = Array(String(character).utf8)
            if reasonBytes.count + next.count > 123 { break }
            reasonBytes += next
        }
        return [UInt8(code.rawValue >> 8), UInt8(code.rawValue & 0xFF)] + reasonBytes
    }
}
