import CorkboardModel

/// A message field that is missing or has the wrong type; the text says which.
struct FieldError: Error {
    var message: String
}

/// Reads typed fields out of a decoded JSON object, naming the field in every error so
/// a client gets a useful `invalid` message.
struct FieldReader {
    let object: JSONObject
    /// Where `object` sits in the body (`collections[1].items[3]`), empty at its top: errors
    /// name a field by its whole path, so a client finds it in a body of thousands of items.
    let path: String

    init(_ object: JSONObject, path: String = "") {
        self.object = object
        self.path = path
    }

    /// The path of `key` within the body.
    func name(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    /// Refuses a field not in `known`, named by its path (the first in key order, so the
    /// message is the same for the same body): a misspelt optional field is an error, not
    /// silently ignored.
    func refuseUnknownFields(_ known: Set<String>) throws(FieldError) {
        if let unknown = object.keys.filter({ !known.contains($0) }).sorted().first {
            throw FieldError(message: "unknown field \"\(name(unknown))\"")
        }
    }

    /// The objects of array `key`, each read at its own path (`key[i]`).
    func objects(_ key: String) throws(FieldError) -> [FieldReader] {
        try array(key).enumerated().map { index, value throws(FieldError) in
            let path = "\(name(key))[\(index)]"
            guard case .object(let object) = value else { throw FieldError(message: "field \"\(path)\" must be an object") }
            return FieldReader(object, path: path)
        }
    }

    /// True when the key is present, even with `null`.
    func has(_ key: String) -> Bool { object[key] != nil }

    func string(_ key: String) throws(FieldError) -> String {
        guard let value = object[key] else { throw FieldError(message: "missing field \"\(name(key))\"") }
        guard case .string(let string) = value else { throw FieldError(message: "field \"\(name(key))\" must be a string") }
        return string
    }

    /// Absent and `null` both mean nil.
    func optionalString(_ key: String) throws(FieldError) -> String? {
        guard let value = object[key], value != .null else { return nil }
        guard case .string(let string) = value else { throw FieldError(message: "field \"\(name(key))\" must be a string or null") }
        return string
    }

    /// Absent and `null` both mean nil.
    func optionalBool(_ key: String) throws(FieldError) -> Bool? {
        guard let value = object[key], value != .null else { return nil }
        return try bool(key)
    }

    func bool(_ key: String) throws(FieldError) -> Bool {
        guard let value = object[key] else { throw FieldError(message: "missing field \"\(name(key))\"") }
        guard case .bool(let bool) = value else { throw FieldError(message: "field \"\(name(key))\" must be true or false") }
        return bool
    }

    func int(_ key: String) throws(FieldError) -> Int {
        guard let value = object[key] else { throw FieldError(message: "missing field \"\(name(key))\"") }
        return try Self.integer(value, name(key))
    }

    func optionalInt(_ key: String) throws(FieldError) -> Int? {
        guard let value = object[key], value != .null else { return nil }
        return try Self.integer(value, name(key))
    }

    /// A seq a client names (a resume point): an integer, or nil for a whole number past
    /// every seq a board reaches (beyond ±`Limits.maximumSeq`, however large), which names
    /// no seq at all. Anything else that is not an integer is refused as `int` refuses it.
    func seq(_ key: String) throws(FieldError) -> Int? {
        guard case .number(let number)? = object[key], number.rounded() == number,
            abs(number) > Double(Limits.maximumSeq)
        else { return try int(key) }
        return nil
    }

    func strings(_ key: String) throws(FieldError) -> [String] {
        try array(key).map { value throws(FieldError) in
            guard case .string(let string) = value else { throw FieldError(message: "field \"\(name(key))\" must hold strings") }
            return string
        }
    }

    func ints(_ key: String) throws(FieldError) -> [Int] {
        try array(key).map { value throws(FieldError) in try Self.integer(value, name(key)) }
    }

    func array(_ key: String) throws(FieldError) -> [JSONValue] {
        guard let value = object[key] else { throw FieldError(message: "missing field \"\(name(key))\"") }
        guard case .array(let array) = value else { throw FieldError(message: "field \"\(name(key))\" must be an array") }
        return array
    }

    func object(_ key: String) throws(FieldError) -> FieldReader {
        guard let value = object[key] else { throw FieldError(message: "missing field \"\(name(key))\"") }
        guard case .object(let nested) = value else { throw FieldError(message: "field \"\(name(key))\" must be an object") }
        return FieldReader(nested)
    }

    func optionalObject(_ key: String) throws(FieldError) -> FieldReader? {
        guard let value = object[key], value != .null else { return nil }
        guard case .object(let nested) = value else { throw FieldError(message: "field \"\(name(key))\" must be an object or null") }
        return FieldReader(nested)
    }

    /// JSON numbers arrive as doubles; an integer field takes only whole numbers that
    /// a double represents exactly.
    private static func integer(_ value: JSONValue, _ name: String) throws(FieldError) -> Int {
        guard case .number(let number) = value, number.rounded() == number, abs(number) <= 9_007_199_254_740_992 else {
            throw FieldError(message: "field \"\(name)\" must be an integer")
        }
        return Int(number)
    }
}
