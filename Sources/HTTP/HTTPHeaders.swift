/// Header fields in arrival order; names compare case-insensitively.
public struct HTTPHeaders: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral {
    public private(set) var fields: [(name: String, value: String)] = []

    public init() {}
    public init(dictionaryLiteral elements: (String, String)...) {
        for (name, value) in elements { add(name, value) }
    }

    public mutating func add(_ name: String, _ value: String) { fields.append((name, value)) }

    /// Replaces every field called `name` with one.
    public mutating func set(_ name: String, _ value: String) {
        remove(name)
        add(name, value)
    }

    public mutating func remove(_ name: String) {
        fields.removeAll { $0.name.caseInsensitiveEquals(name) }
    }

    /// The first value of `name`.
    public subscript(name: String) -> String? {
        fields.first { $0.name.caseInsensitiveEquals(name) }?.value
    }

    public func values(_ name: String) -> [String] {
        fields.filter { $0.name.caseInsensitiveEquals(name) }.map(\.value)
    }

    /// Comma-separated list elements across every field called `name`, trimmed, case kept
    /// (e.g. `Sec-WebSocket-Protocol`, whose names are case-sensitive).
    public func list(_ name: String) -> [String] {
        values(name).flatMap { $0.split(separator: ",") }.map { $0.trimmingOWS() }.filter { !$0.isEmpty }
    }

    /// `list` lowercased, for case-insensitive tokens (`Connection`, `Accept-Encoding`, `If-None-Match`...).
    public func tokens(_ name: String) -> [String] {
        list(name).map { $0.lowercased() }
    }

    public func contains(_ name: String) -> Bool { self[name] != nil }

    public func makeIterator() -> IndexingIterator<[(name: String, value: String)]> { fields.makeIterator() }

    public static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
        lhs.fields.elementsEqual(rhs.fields) { $0.name == $1.name && $0.value == $1.value }
    }
}

extension StringProtocol {
    func caseInsensitiveEquals(_ other: some StringProtocol) -> Bool {
        utf8.count == other.utf8.count && lowercased() == other.lowercased()
    }

    /// Drops spaces and tabs at both ends (HTTP's "optional whitespace"). Byte by byte, not
    /// by Character: a space followed by a combining mark is one Character (" \u{301}"), which
    /// is not " ", so trimming by Character kept such a space (found by HTTPRequestFuzz).
    public func trimmingOWS() -> String {
        let bytes = Substring(self).utf8
        var start = bytes.startIndex, end = bytes.endIndex
        func isOWS(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }
        while start < end, isOWS(bytes[start]) { start = bytes.index(after: start) }
        while start < end, isOWS(bytes[bytes.index(before: end)]) { end = bytes.index(before: end) }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }
}
