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
        valueStart(key, in: bytes).flatMap { stringValue(at: $0, in: bytes) }
    }

    /// The value of the top-level `"key":N` integer field, if any.
    static func integer(_ key: String, in text: String) -> Int? {
        var text = text
        return text.withUTF8 { integer(key, in: $0) }
    }

    static func integer(_ key: String, in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        valueStart(key, in: bytes).flatMap { integerValue(at: $0, in: bytes) }
    }

    /// The message's `type`.
    static func type(of text: String) -> Substring? { string("type", in: text) }

    /// Where the value of the top-level `"key":` starts (after optional spaces), or nil.
    fileprivate static func valueStart(_ key: String, in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var key = key
        return key.withUTF8 { pattern in
            var found: Int?
            forEachTopLevelKey(in: bytes) { name, valueStart in
                guard name.elementsEqual(pattern) else { return true }
                found = valueStart
                return false
            }
            return found
        }
    }

    /// Calls `body` with each key of the outer object and where its value starts (after
    /// optional spaces), in order, until it returns false. Keys are found at the outer object's
    /// level only, whatever their order: servers that sort keys put a nested
    /// `"op":{"type":"move"}` before the message's own `"type"`.
    static func forEachTopLevelKey(
        in bytes: UnsafeBufferPointer<UInt8>, _ body: (_ key: UnsafeBufferPointer<UInt8>, _ valueStart: Int) -> Bool
    ) {
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
                guard index < bytes.count else { return }
                // A string at the outer level followed by ':' is a key.
                if depth == 1 {
                    var value = index + 1
                    while value < bytes.count, bytes[value] == UInt8(ascii: " ") { value += 1 }
                    if value < bytes.count, bytes[value] == UInt8(ascii: ":") {
                        value += 1
                        while value < bytes.count, bytes[value] == UInt8(ascii: " ") { value += 1 }
                        guard body(UnsafeBufferPointer(rebasing: bytes[start..<index]), value) else { return }
                    }
                }
            default:
                break
            }
            index += 1
        }
    }

    /// The bytes of the string value starting at `start` (escapes kept), if it is one.
    static func stringValue(at start: Int, in bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8>? {
        guard start < bytes.count, bytes[start] == UInt8(ascii: "\"") else { return nil }
        var end = start + 1
        while end < bytes.count, bytes[end] != UInt8(ascii: "\"") { end += 1 }
        guard end < bytes.count else { return nil }
        return UnsafeBufferPointer(rebasing: bytes[(start + 1)..<end])
    }

    /// The non-negative integer value starting at `start`, if it is one.
    static func integerValue(at start: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var index = start
        var value = 0
        var digits = 0
        while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9"), digits < 18 {
            value = value * 10 + Int(bytes[index] - UInt8(ascii: "0"))
            index += 1
            digits += 1
        }
        return digits > 0 ? value : nil
    }

    /// Whether the value starting at `start` is `true`.
    static func isTrueValue(at start: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        start + 4 <= bytes.count && bytes[start] == UInt8(ascii: "t") && bytes[start + 3] == UInt8(ascii: "e")
    }
}

extension WireScan {
    /// Whether the top-level `"key":` field is `true`.
    static func isTrue(_ key: String, in text: String) -> Bool {
        var text = text
        return text.withUTF8 { isTrue(key, in: $0) }
    }

    static func isTrue(_ key: String, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        valueStart(key, in: bytes).map { isTrueValue(at: $0, in: bytes) } ?? false
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

extension WireScan {
    /// What a bench member reads of each server message, found in one pass over its outer keys.
    ///
    /// Scanning once per field would cost a server that sorts its keys (`type` last) several
    /// passes per message where one with `type` first costs little more than one: the bench
    /// client shares the machine with the server it measures, so its cost must not depend on
    /// the key order.
    struct MessageFields {
        var type: UnsafeBufferPointer<UInt8>?
        var seq: Int?
        var noop = false
        var opId: UnsafeBufferPointer<UInt8>?

        init(scanning bytes: UnsafeBufferPointer<UInt8>) {
            WireScan.forEachTopLevelKey(in: bytes) { key, start in
                switch key.count {
                case 3 where key.elementsEqual("seq".utf8): seq = WireScan.integerValue(at: start, in: bytes)
                case 4 where key.elementsEqual("type".utf8): type = WireScan.stringValue(at: start, in: bytes)
                case 4 where key.elementsEqual("noop".utf8): noop = WireScan.isTrueValue(at: start, in: bytes)
                case 4 where key.elementsEqual("opId".utf8): opId = WireScan.stringValue(at: start, in: bytes)
                default: break
                }
                return true
            }
        }

        func isType(_ name: StaticString) -> Bool {
            guard let type else { return false }
            return name.withUTF8Buffer { type.elementsEqual($0) }
        }
    }
}
