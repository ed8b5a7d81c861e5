/// Finds a few top-level fields of a server message by its bytes, without decoding the JSON.
///
/// Thousands of bench members each receive every broadcast: a full decode per message would
/// make the bench process, not the server, the limit. One pass over the bytes, tracking only
/// nesting and strings, finds a key of the outer object whatever the key order and spacing.
enum WireScan {
    /// The value of the top-level `"key":"…"` string field, if any (escapes are kept as sent).
    static func string(_ key: String, in text: String) -> Substring? {
        var text = text
        return text.withUTF8 { string(key, in: $0).map { Substring(decoding: $0, as: UTF8.self) } }
    }

    /// The bytes of the top-level `"key":"…"` string field's value, if any.
    static func string(_ key: String, in bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8>? {
        guard let start = valueStart(key, in: bytes), start < bytes.count, bytes[start] == UInt8(ascii: "\"") else { return nil }
        var end = start + 1
        while end < bytes.count, bytes[end] != UInt8(ascii: "\"") { end += 1 }
        guard end < bytes.count else { return nil }
        return UnsafeBufferPointer(rebasing: bytes[(start + 1)..<end])
    }

    /// The value of the top-level `"key":N` integer field, if any.
    static func integer(_ key: String, in text: String) -> Int? {
        var text = text
        return text.withUTF8 { integer(key, in: $0) }
    }

    static func integer(_ key: String, in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard var index = valueStart(key, in: bytes) else { return nil }
        var value = 0
        var digits = 0
        while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9"), digits < 18 {
            value = value * 10 + Int(bytes[index] - UInt8(ascii: "0"))
            index += 1
            digits += 1
        }
        return digits > 0 ? value : nil
    }

    /// The message's `type`.
    static func type(of text: String) -> Substring? { string("type", in: text) }

    /// Where the value of the top-level `"key":` starts (after optional spaces), or nil.
    /// Keys are found at the outer object's level only, whatever their order: servers that
    /// sort keys put a nested `"op":{"type":"move"}` before the message's own `"type"`.
    fileprivate static func valueStart(_ key: String, in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var key = key
        return key.withUTF8 { valueStart(pattern: $0, in: bytes) }
    }

    private static func valueStart(pattern: UnsafeBufferPointer<UInt8>, in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var depth = 0
        var index = 0
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
            case UInt8(ascii: "\""):
                let start = index + 1
                index = start
                while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                    index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
                }
                guard index < bytes.count else { return nil }
                // A string at the outer level followed by ':' is a key.
                if depth == 1, index - start == pattern.count,
                    UnsafeBufferPointer(rebasing: bytes[start..<index]).elementsEqual(pattern)
                {
                    var value = index + 1
                    while value < bytes.count, bytes[value] == UInt8(ascii: " ") { value += 1 }
                    if value < bytes.count, bytes[value] == UInt8(ascii: ":") {
                        value += 1
                        while value < bytes.count, bytes[value] == UInt8(ascii: " ") { value += 1 }
                        return value
                    }
                }
            default:
                break
            }
            index += 1
        }
        return nil
    }
}

extension WireScan {
    /// Whether the top-level `"key":` field is `true`.
    static func isTrue(_ key: String, in text: String) -> Bool {
        var text = text
        return text.withUTF8 { isTrue(key, in: $0) }
    }

    static func isTrue(_ key: String, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let start = valueStart(key, in: bytes), start + 4 <= bytes.count else { return false }
        return bytes[start] == UInt8(ascii: "t") && bytes[start + 3] == UInt8(ascii: "e")
    }
}

extension WireScan {
    /// The top-level `"key":{…}` object field's text, if any (for a nested field's scan).
    static func object(_ key: String, in text: String) -> String? {
        var text = text
        return text.withUTF8 { bytes -> String? in
            guard let start = valueStart(key, in: bytes), start < bytes.count, bytes[start] == UInt8(ascii: "{") else { return nil }
            var depth = 0
            var index = start
            var inString = false
            while index < bytes.count {
                let byte = bytes[index]
                if inString {
                    if byte == UInt8(ascii: "\\") { index += 1 } else if byte == UInt8(ascii: "\"") { inString = false }
                } else if byte == UInt8(ascii: "\"") {
                    inString = true
                } else if byte == UInt8(ascii: "{") {
                    depth += 1
                } else if byte == UInt8(ascii: "}") {
                    depth -= 1
                    if depth == 0 {
                        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start...index]), as: UTF8.self)
                    }
                }
                index += 1
            }
            return nil
        }
    }
}
