/// A complete application message.
public enum WebSocketMessage: Equatable, Sendable {
    case text(String)
    case binary([UInt8])
}
