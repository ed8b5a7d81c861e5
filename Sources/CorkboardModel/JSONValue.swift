/// Any JSON value: the `data` payload an item may carry is an object of these.
///
/// Numbers are kept as `Double`, which is what JSON itself promises interoperably
/// (RFC 8259 §6); integers up to 2^53 survive a round trip unchanged.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])
}

extension JSONValue {
    /// Takes this value's encoded size (without escapes) from `budget`; false as soon as it
    /// runs out, so a huge value costs no more than the budget to refuse.
    func fits(in budget: inout Int) -> Bool {
        switch self {
        case .null, .bool: budget -= 5
        case .number: budget -= 24
        case .string(let text): budget -= text.utf8.count + 2
        case .array(let values):
            budget -= 2 + max(0, values.count - 1)
            for value in values where budget >= 0 {
                if !value.fits(in: &budget) { return false }
            }
        case .object(let members):
            budget -= 2 + max(0, members.count - 1)
            for (key, value) in members where budget >= 0 {
                budget -= key.utf8.count + 3
                if !value.fits(in: &budget) { return false }
            }
        }
        return budget >= 0
    }

    /// True when a string or a key anywhere in the value holds U+0000 (`Limits.textProblem`).
    var holdsNUL: Bool {
        switch self {
        case .null, .bool, .number: false
        case .string(let text): text.utf8.contains(0)
        case .array(let values): values.contains { $0.holdsNUL }
        case .object(let members): members.contains { $0.key.utf8.contains(0) || $0.value.holdsNUL }
        }
    }

    /// True when arrays and objects nest at most `levels` deep (this value counting as one).
    /// Goes no deeper than `levels`, however deep the value is.
    func nests(within levels: Int) -> Bool {
        switch self {
        case .null, .bool, .number, .string: true
        case .array(let values): levels > 0 && values.allSatisfy { $0.nests(within: levels - 1) }
        case .object(let members): levels > 0 && members.values.allSatisfy { $0.nests(within: levels - 1) }
        }
    }
}

/// An item's optional `data` is always a JSON object.
public typealias JSONObject = [String: JSONValue]

extension JSONValue: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else if let value = try? container.decode([String: JSONValue].self) {
            self = .object(value)
        } else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a JSON value")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}

extension JSONValue {
    /// The string, if this is one; handy when reading untyped messages.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The object, if this is one.
    public var objectValue: JSONObject? {
        if case .object(let value) = self { return value }
        return nil
    }
}

extension JSONValue: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) {
        self = .string(value)
    }
}
