import CorkboardModel
import Foundation

/// RFC 8259 JSON text → `JSONValue`, straight from UTF-8 bytes.
///
/// Every client message is parsed into a `JSONValue` first (the field reader then names the
/// field that is wrong). Foundation's `JSONDecoder` can only build a `JSONValue` by trying
/// each type in turn and throwing a `DecodingError` on each miss, which made parsing a third
/// of the server's CPU under load (docs/benchmarks.md). This reads each value once.
///
/// Strict: no comments, trailing commas, leading zeros, `NaN`, single quotes, unescaped
/// control characters, invalid UTF-8 or lone surrogates; nothing after the value but
/// whitespace; at most `maximumDepth` nested arrays and objects. A repeated key keeps its last
/// value, or with `refusingRepeatedKeys` refuses the text (files people write, where the
/// first and the last of two keys may both look like the one that counts).
enum JSONParser {
    static let maximumDepth = Limits.maximumJSONDepth

    /// Why a text is not taken.
    enum Failure: Error, Equatable {
        case malformed
        /// Well-formed as far as the parser read, but nested deeper than `maximumDepth`.
        /// `outline` is the value with every array or object past the limit replaced by
        /// `null` (their contents unread), so the message's `type` and `opId` can still be
        /// answered.
        case nestedTooDeep(outline: JSONValue)
        /// An object names this key twice (only with `refusingRepeatedKeys`).
        case repeatedKey(String)

        /// What the client is told (`error` or `rejected`, code `invalid`:
        /// docs/protocol.md#7-error-rules).
        var message: String {
            switch self {
            case .malformed: "malformed JSON"
            case .nestedTooDeep: "nested too deep (more than \(JSONParser.maximumDepth) levels)"
            case .repeatedKey(let key): "the key \(key.debugDescription) appears twice in one object"
            }
        }
    }

    /// Internal to the reader: the text is not JSON.
    private struct Malformed: Error {}

    /// The value of a whole JSON text.
    static func parse(_ data: Data, refusingRepeatedKeys: Bool = false) throws(Failure) -> JSONValue {
        // `Data.withUnsafeBytes` rethrows untyped: the failure travels out as a value.
        try data.withUnsafeBytes { bytes in
            Result { () throws(Failure) in try parse(bytes, refusingRepeatedKeys: refusingRepeatedKeys) }
        }.get()
    }

    static func parse(_ bytes: UnsafeRawBufferPointer, refusingRepeatedKeys: Bool = false) throws(Failure) -> JSONValue {
        var reader = Reader(bytes: bytes.bindMemory(to: UInt8.self), refusingRepeatedKeys: refusingRepeatedKeys)
        let value: JSONValue
        do throws(Malformed) {
            value = try reader.value(depth: 0)
            reader.skipWhitespace()
            guard reader.atEnd else { throw Malformed() }
        } catch {
            if let key = reader.repeatedKey { throw .repeatedKey(key) }
            throw .malformed
        }
        if reader.skippedTooDeep { throw .nestedTooDeep(outline: value) }
        return value
    }

    private struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        let refusingRepeatedKeys: Bool
        var index = 0
        /// The key found twice when `refusingRepeatedKeys` stopped the reading.
        var repeatedKey: String?
        /// An array or object past `maximumDepth` was stepped over (read as `null`).
        var skippedTooDeep = false

        var atEnd: Bool { index == bytes.count }

        private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

        mutating func skipWhitespace() {
            while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09 {
                index += 1
            }
        }

        private mutating func expect(_ byte: UInt8) throws(Malformed) {
            guard current == byte else { throw Malformed() }
            index += 1
        }

        mutating func value(depth: Int) throws(Malformed) -> JSONValue {
            skipWhitespace()
            guard let byte = current else { throw Malformed() }
            switch byte {
            case UInt8(ascii: "{"): return try object(depth: depth + 1)
            case UInt8(ascii: "["): return try array(depth: depth + 1)
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"):
                try literal("true")
                return .bool(true)
            case UInt8(ascii: "f"):
                try literal("false")
                return .bool(false)
            case UInt8(ascii: "n"):
                try literal("null")
                return .null
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
            default: throw Malformed()
            }
        }

        private mutating func object(depth: Int) throws(Malformed) -> JSONValue {
            guard depth <= JSONParser.maximumDepth else { return try skipTooDeep() }
            index += 1
            var members: [String: JSONValue] = [:]
            if closes(UInt8(ascii: "}")) { return .object(members) }
            while true {
                skipWhitespace()
                let key = try string()
                skipWhitespace()
                try expect(UInt8(ascii: ":"))
                let member = try value(depth: depth)
                // Swift's `==` also takes two Unicode spellings of one key for a repeat: both
                // would land in one entry, so both are refused.
                if refusingRepeatedKeys, members[key] != nil {
                    repeatedKey = key
                    throw Malformed()
                }
                members[key] = member
                if closes(UInt8(ascii: "}")) { return .object(members) }
                try expect(UInt8(ascii: ","))
            }
        }

        private mutating func array(depth: Int) throws(Malformed) -> JSONValue {
            guard depth <= JSONParser.maximumDepth else { return try skipTooDeep() }
            index += 1
            var elements: [JSONValue] = []
            if closes(UInt8(ascii: "]")) { return .array(elements) }
            while true {
                elements.append(try value(depth: depth))
                if closes(UInt8(ascii: "]")) { return .array(elements) }
                try expect(UInt8(ascii: ","))
            }
        }

        /// Steps over the array or object starting here, nested past the limit, without
        /// building it or recursing (the reason for the limit): brackets are counted outside
        /// strings until the one that opened it closes. What it holds is not checked, so a
        /// text both too deep and malformed inside the deep part is reported as too deep.
        private mutating func skipTooDeep() throws(Malformed) -> JSONValue {
            var open = 0
            while let byte = current {
                index += 1
                switch byte {
                case UInt8(ascii: "["), UInt8(ascii: "{"):
                    open += 1
                case UInt8(ascii: "]"), UInt8(ascii: "}"):
                    open -= 1
                    if open == 0 {
                        skippedTooDeep = true
                        return .null
                    }
                case UInt8(ascii: "\""):
                    // To the closing quote; a backslash takes the byte after it along.
                    while let inner = current, inner != UInt8(ascii: "\"") {
                        index += inner == UInt8(ascii: "\\") ? 2 : 1
                    }
                    guard current != nil else { throw Malformed() }
                    index += 1
                default:
                    break
                }
            }
            throw Malformed()
        }

        /// Skips whitespace and takes `closing` if it comes next: the end of an object or array
        /// (right after its opening, or after a member or element, where a comma must follow otherwise).
        private mutating func closes(_ closing: UInt8) -> Bool {
            skipWhitespace()
            guard current == closing else { return false }
            index += 1
            return true
        }

        private mutating func literal(_ word: StaticString) throws(Malformed) {
            let count = word.utf8CodeUnitCount
            guard bytes.count - index >= count else { throw Malformed() }
            for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] { throw Malformed() }
            index += count
        }

        /// `-? (0 | [1-9][0-9]*) (.[0-9]+)? ([eE][+-]?[0-9]+)?`, finite.
        private mutating func number() throws(Malformed) -> Double {
            let start = index
            if current == UInt8(ascii: "-") { index += 1 }
            if current == UInt8(ascii: "0") {
                index += 1
            } else {
                guard digits() > 0 else { throw Malformed() }
            }
            if current == UInt8(ascii: ".") {
                index += 1
                guard digits() > 0 else { throw Malformed() }
            }
            if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
                index += 1
                if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
                guard digits() > 0 else { throw Malformed() }
            }
            let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
            guard let number = Double(text), number.isFinite else { throw Malformed() }
            return number
        }

        private mutating func digits() -> Int {
            let start = index
            while let byte = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { index += 1 }
            return index - start
        }

        /// A string starting at its opening quote. Runs without escapes are taken whole.
        private mutating func string() throws(Malformed) -> String {
            try expect(UInt8(ascii: "\""))
            var decoded: [UInt8] = []
            var runStart = index
            while true {
                guard let byte = current else { throw Malformed() }
                switch byte {
                case UInt8(ascii: "\""):
                    let run = UnsafeBufferPointer(rebasing: bytes[runStart..<index])
                    index += 1
                    if decoded.isEmpty, let whole = String(validating: run, as: UTF8.self) { return whole }
                    decoded.append(contentsOf: run)
                    guard let text = String(validating: decoded, as: UTF8.self) else { throw Malformed() }
                    return text
                case UInt8(ascii: "\\"):
                    decoded.append(contentsOf: bytes[runStart..<index])
                    index += 1
                    try escape(into: &decoded)
                    runStart = index
                case 0..<0x20:
                    throw Malformed()
                default:
                    index += 1
                }
            }
        }

        private mutating func escape(into decoded: inout [UInt8]) throws(Malformed) {
            guard let byte = current else { throw Malformed() }
            index += 1
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): decoded.append(byte)
            case UInt8(ascii: "b"): decoded.append(0x08)
            case UInt8(ascii: "f"): decoded.append(0x0C)
            case UInt8(ascii: "n"): decoded.append(0x0A)
            case UInt8(ascii: "r"): decoded.append(0x0D)
            case UInt8(ascii: "t"): decoded.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = UInt32(try hex4())
                if (0xD800...0xDBFF).contains(scalar) {
                    // A high surrogate must be followed by an escaped low one.
                    try expect(UInt8(ascii: "\\"))
                    try expect(UInt8(ascii: "u"))
                    let low = UInt32(try hex4())
                    guard (0xDC00...0xDFFF).contains(low) else { throw Malformed() }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                }
                guard let unicode = Unicode.Scalar(scalar) else { throw Malformed() }
                decoded.append(contentsOf: UTF8.encode(unicode)!)
            default:
                throw Malformed()
            }
        }

        private mutating func hex4() throws(Malformed) -> UInt16 {
            guard bytes.count - index >= 4 else { throw Malformed() }
            var value: UInt16 = 0
            for _ in 0..<4 {
                let byte = bytes[index]
                let digit: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
                default: throw Malformed()
                }
                value = value << 4 | UInt16(digit)
                index += 1
            }
            return value
        }
    }
}
