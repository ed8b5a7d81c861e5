import CorkboardModel

/// A message field that is missing or has the wrong type; the text says which.
struct FieldError: Error {
    var message: String
}

/// Reads typed fields out of a decoded JSON object, naming the field in every error so
/// a client gets a useful `invalid` message.
struct FieldReader {
    let object: JSONObject

    init(_ object: JSONObject) {
        self.object = object
    }

    /// True when the key is present, even with `null`.
    func has(_ key: String) -> Bool { object[key] != nil }

    func string(_ key: String) throws(FieldError) -> String {
        guard let value = object[key] else { throw FieldError(message: "missing field \"\(key)\"") }
        guard case .string(let string) = value else { throw FieldError(message: "field \"\(key)\" must be a string") }
        return string
    }

    /// Absent and `null` both mean nil.
    func optionalString(_ key: String) throws(FieldError) -> String? {
        guard let value = object[key], value != .null else { return nil }
        guard case .string(let string) = value else { throw FieldError(message: "field \"\(key)\" must be a string or null") }
        return string
    }

    func bool(_ key: String) throws(FieldError) -> Bool {
        guard let value = object[key] else { throw FieldError(message: "missing field \"\(key)\"") }
        guard case .bool(let bool) = value else { throw FieldError(message: "field \"\(key)\" must be true or false") }
        return bool
    }

    func int(_ key: String) throws(FieldError) -> Int {
        guard let value = object[key] else { throw FieldError(message: "missing field \"\(key)\"") }
        return try Self.integer(value, key)
    }

    func optionalInt(_ key: String) throws(FieldError) -> Int? {
        guard let value = object[key], value != .null else { return nil }
        return try Self.integer(value, key)
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
            guard case .string(let string) = value else { throw FieldError(message: "field \"\(key)\" must hold strings") }
            return string
        }
    }

    func ints(_ key: String) throws(FieldError) -> [Int] {
        try array(key).map { value throws(FieldError) in try Self.integer(value, key) }
    }

    func array(_ key: String) throws(FieldError) -> [JSONValue] {
        guard let value = object[key] else { throw FieldError(message: "missing field \"\(key)\"") }
        guard case .array(let array) = value else { throw FieldError(message: "field \"\(key)\" must be an array") }
        return array
    }

    func object(_ key: String) throws(FieldError) -> FieldReader {
        guard let value = object[key] else { throw FieldError(message: "missing field \"\(key)\"") }
        guard case .object(let nested) = value else { throw FieldError(message: "field \"\(key)\" must be an object") }
        return FieldReader(nested)
    }

    func optionalObject(_ key: String) throws(FieldError) -> FieldReader? {
        guard let value = object[key], value != .null else { return nil }
        guard case .object(let nested) = value else { throw FieldError(message: "field \"\(key)\" must be an object or null") }
        return FieldReader(nested)
    }

    /// JSON numbers arrive as doubles; an integer field takes only whole numbers that
    /// a double represents exactly.
    private static func integer(_ value: JSONValue, _ key: String) throws(FieldError) -> Int {
        guard case .number(let number) = value, number.rounded() == number, abs(number) <= 9_007_199_254_740_992 else {
            throw FieldError(message: "field \"\(key)\" must be an integer")
        }
        return Int(number)
    }
}
