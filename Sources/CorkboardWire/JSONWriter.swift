import CorkboardModel

/// Writes JSON straight into bytes, in the form ``WireFormat``'s `JSONEncoder` gives: keys in
/// sorted order, `/` left unescaped, control characters escaped, integral numbers without a
/// fraction. Used for the messages the server sends most (`committed`, `drag`, …): encoding
/// each `committed` through `JSONEncoder` took about a tenth of the server's CPU.
///
/// Callers write an object's fixed keys in sorted order themselves; a `JSONObject`'s keys
/// (an item's `data`) are sorted here, by Unicode code points.
struct JSONWriter {
    private(set) var bytes: [UInt8] = []
    /// The last byte of what `takeBytes` handed out: commas still fall right across pieces.
    private var lastTaken: UInt8?

    init(capacity: Int = 256) {
        bytes.reserveCapacity(capacity)
    }

    // MARK: Structure

    mutating func openObject() {
        separate()
        bytes.append(UInt8(ascii: "{"))
    }

    mutating func closeObject() { bytes.append(UInt8(ascii: "}")) }

    mutating func openArray() {
        separate()
        bytes.append(UInt8(ascii: "["))
    }

    mutating func closeArray() { bytes.append(UInt8(ascii: "]")) }

    /// `"name":`, after a comma unless it is the object's first member.
    mutating func key(_ name: StaticString) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
    }

    /// A comma before anything but the first member or element (what comes after `{`, `[` or `:`).
    private mutating func separate() {
        guard let last = bytes.last ?? lastTaken, last != UInt8(ascii: "{"), last != UInt8(ascii: "["), last != UInt8(ascii: ":") else { return }
        bytes.append(UInt8(ascii: ","))
    }

    /// Hands out what was written so far and starts a new piece of the same document.
    mutating func takeBytes() -> [UInt8] {
        lastTaken = bytes.last ?? lastTaken
        defer { bytes = [] }
        return bytes
    }

    // MARK: Values

    mutating func null() { literal("null") }

    mutating func bool(_ value: Bool) { literal(value ? "true" : "false") }

    private mutating func literal(_ text: StaticString) {
        separate()
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    mutating func int(_ value: Int) {
        separate()
        bytes.append(contentsOf: String(value).utf8)
    }

    mutating func number(_ value: Double) {
        // Integral values in the range a Double holds exactly are written as integers, as
        // JSONEncoder does; the rest in Swift's shortest round-tripping form (`1e+20`, `0.1`).
        if value.rounded() == value, abs(value) < 9_007_199_254_740_992 {
            int(Int(value))
        } else {
            separate()
            bytes.append(contentsOf: value.description.utf8)
        }
    }

    mutating func string(_ value: String) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        var value = value
        value.withUTF8 { utf8 in
            var start = 0
            for (index, byte) in utf8.enumerated() where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                bytes.append(contentsOf: utf8[start..<index])
                escape(byte)
                start = index + 1
            }
            bytes.append(contentsOf: utf8[start...])
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private mutating func escape(_ byte: UInt8) {
        bytes.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(byte)
        case 0x08: bytes.append(UInt8(ascii: "b"))
        case 0x0C: bytes.append(UInt8(ascii: "f"))
        case 0x0A: bytes.append(UInt8(ascii: "n"))
        case 0x0D: bytes.append(UInt8(ascii: "r"))
        case 0x09: bytes.append(UInt8(ascii: "t"))
        default:
            let hex = Array("0123456789abcdef".utf8)
            bytes.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
        }
    }

    mutating func strings(_ values: [String]) {
        openArray()
        for value in values { string(value) }
        closeArray()
    }

    mutating func value(_ value: JSONValue) {
        switch value {
        case .null: null()
        case .bool(let flag): bool(flag)
        case .number(let figure): number(figure)
        case .string(let text): string(text)
        case .array(let elements):
            openArray()
            for element in elements { self.value(element) }
            closeArray()
        case .object(let members): object(members)
        }
    }

    mutating func object(_ members: JSONObject) {
        openObject()
        for name in members.keys.sorted() {
            memberName(name)
            value(members[name]!)
        }
        closeObject()
    }

    /// JSON written before (a board shared by many `welcome`s), as the next value.
    mutating func raw(_ json: [UInt8]) {
        separate()
        bytes.append(contentsOf: json)
    }

    /// `"name":` for a name known only when writing (a data key, a folder's id).
    mutating func memberName(_ name: String) {
        string(name)
        bytes.append(UInt8(ascii: ":"))
    }

    /// `"name":` then an object whose members `body` writes.
    mutating func objectMember(_ name: StaticString, _ body: (inout JSONWriter) -> Void) {
        key(name)
        openObject()
        body(&self)
        closeObject()
    }
}
