/// Validates UTF-8 incrementally, chunk by chunk, stopping at the first byte that cannot
/// start or continue a well-formed sequence (RFC 3629: no overlongs, no surrogates, nothing
/// above U+10FFFF). A text message split anywhere, even inside a character, validates the
/// same as whole; an invalid one fails as soon as its first bad byte arrives.
public struct UTF8Validator: Sendable {
    /// Continuation bytes still expected for the current character.
    private var remaining = 0
    /// The allowed range of the next continuation byte (narrower right after some lead bytes).
    private var lower: UInt8 = 0x80
    private var upper: UInt8 = 0xBF

    public init() {}

    /// True when no character is cut off: the message may end here.
    public var isComplete: Bool { remaining == 0 }

    /// Returns false at the first invalid byte; the validator is then unusable.
    public mutating func validate(_ bytes: some Sequence<UInt8>) -> Bool {
        for byte in bytes {
            if remaining == 0 {
                if byte < 0x80 { continue }
                switch byte {
                case 0xC2...0xDF:
                    remaining = 1
                    lower = 0x80
                    upper = 0xBF
                case 0xE0:
                    remaining = 2
                    lower = 0xA0
                    upper = 0xBF // no overlongs
                case 0xE1...0xEC, 0xEE...0xEF:
                    remaining = 2
                    lower = 0x80
                    upper = 0xBF
                case 0xED:
                    remaining = 2
                    lower = 0x80
                    upper = 0x9F // no surrogates
                case 0xF0:
                    remaining = 3
                    lower = 0x90
                    upper = 0xBF // no overlongs
                case 0xF1...0xF3:
                    remaining = 3
                    lower = 0x80
                    upper = 0xBF
                case 0xF4:
                    remaining = 3
                    lower = 0x80
                    upper = 0x8F // nothing above U+10FFFF
                default: return false
                }
            } else {
                guard byte >= lower && byte <= upper else { return false }
                remaining -= 1
                lower = 0x80
                upper = 0xBF
            }
        }
        return true
    }

    /// Validates a whole buffer at once.
    public static func isValid(_ bytes: some Sequence<UInt8>) -> Bool {
        var validator = UTF8Validator()
        return validator.validate(bytes) && validator.isComplete
    }
}
