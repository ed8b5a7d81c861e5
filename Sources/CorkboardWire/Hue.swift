/// A colour a member chose for itself, as a hue in degrees (docs/protocol.md#colours): the
/// page sets saturation and lightness, so the contrast of white text on it stays its own to
/// guarantee. Two bytes a member, not a string.
public typealias Hue = UInt16

/// The hues `hello` accepts.
public enum Hues {
    public static let valid: ClosedRange<Int> = 0...359
}
