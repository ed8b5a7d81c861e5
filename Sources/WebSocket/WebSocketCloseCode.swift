/// A close status code (RFC 6455 §7.4).
public struct WebSocketCloseCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    public static let normal = WebSocketCloseCode(rawValue: 1000)
    public static let goingAway = WebSocketCloseCode(rawValue: 1001)
    public static let protocolError = WebSocketCloseCode(rawValue: 1002)
    public static let unsupportedData = WebSocketCloseCode(rawValue: 1003)
    /// Never sent on the wire: "no code was given".
    public static let noStatus = WebSocketCloseCode(rawValue: 1005)
    /// Never sent on the wire: "the connection dropped without a close frame".
    public static let abnormal = WebSocketCloseCode(rawValue: 1006)
    public static let invalidPayload = WebSocketCloseCode(rawValue: 1007)
    public static let policyViolation = WebSocketCloseCode(rawValue: 1008)
    public static let messageTooBig = WebSocketCloseCode(rawValue: 1009)
    public static let mandatoryExtension = WebSocketCloseCode(rawValue: 1010)
    public static let internalError = WebSocketCloseCode(rawValue: 1011)
    /// The server restarts the session: reconnect (Corkboard: a member whose role changed).
    public static let serviceRestart = WebSocketCloseCode(rawValue: 1012)
    public static let tryAgainLater = WebSocketCloseCode(rawValue: 1013)

    /// Whether a peer may send this code in a close frame: the codes RFC 6455 and the IANA
    /// registry define for use (1000–1003, 1007–1014) and the ranges for libraries and
    /// applications (3000–4999). 1004–1006 and 1015 are reserved and never sent.
    public var isValidOnTheWire: Bool {
        switch rawValue {
        case 1000...1003, 1007...1014, 3000...4999: return true
        default: return false
        }
    }

    public var description: String { String(rawValue) }
}
