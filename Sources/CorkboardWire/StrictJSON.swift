import CorkboardModel
import Foundation

/// JSON files that people write and the server trusts (the token file): read like a client
/// message, and a key given twice in one object is refused rather than letting the first or
/// the last one win silently — an appended `"role":"viewer"` after `"role":"owner"` must not
/// be ignored by one reader and obeyed by another.
public enum StrictJSON {
    /// Why a text is not taken, in words for the person who wrote it.
    public struct Refusal: Error, CustomStringConvertible {
        public let description: String
        /// The key given twice, when that is why.
        public let repeatedKey: String?
    }

    public static func parse(_ data: Data) throws(Refusal) -> JSONValue {
        do throws(JSONParser.Failure) {
            return try JSONParser.parse(data, refusingRepeatedKeys: true)
        } catch {
            let repeatedKey: String? = if case .repeatedKey(let key) = error { key } else { nil }
            throw Refusal(description: error.message, repeatedKey: repeatedKey)
        }
    }
}
