import CorkboardModel
import Foundation

/// Why a file is not a board archive, in one line (which field, what is wrong with it).
public struct ArchiveDecodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The board's id when the file names one, even though the rest does not decode.
    public var board: String?
    public var description: String
}

extension BoardArchive {
    /// Reads an archive, refusing a text nested deeper than `Limits.maximumJSONDepth` as such
    /// (`JSONDecoder` has the same bound but calls it "not valid JSON").
    public static func decode(_ data: Data) throws(ArchiveDecodingError) -> BoardArchive {
        // Foundation refuses such a text whole, so the board cannot be named here.
        guard nestingDepth(of: data, upTo: Limits.maximumJSONDepth) <= Limits.maximumJSONDepth else {
            throw ArchiveDecodingError(board: nil, description: "nested too deep (more than \(Limits.maximumJSONDepth) levels)")
        }
        do {
            return try JSONDecoder().decode(BoardArchive.self, from: data)
        } catch {
            let named = (try? JSONDecoder().decode(NamedArchive.self, from: data))?.board.id
            throw ArchiveDecodingError(board: named, description: describe(error))
        }
    }

    /// Just the board's id, to name it in an error about the rest.
    private struct NamedArchive: Decodable {
        struct Named: Decodable { var id: String }
        var board: Named
    }

    /// How deeply arrays and objects nest in a JSON text, counted up to one past `limit`:
    /// brackets outside strings (the decoder judges the rest).
    static func nestingDepth(of data: Data, upTo limit: Int) -> Int {
        var (depth, deepest, inString, escaped) = (0, 0, false, false)
        for byte in data {
            if inString {
                switch byte {
                case _ where escaped: escaped = false
                case UInt8(ascii: "\\"): escaped = true
                case UInt8(ascii: "\""): inString = false
                default: break
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                deepest = max(deepest, depth)
                if deepest > limit { return deepest }
            case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
            default: break
            }
        }
        return deepest
    }

    /// JSON decoding errors name the field that is wrong, not Foundation's whole context.
    private static func describe(_ error: Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, _): "the field \"\(key.stringValue)\" is missing"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            "wrong value at \(context.codingPath.map(\.stringValue).joined(separator: ".")): \(context.debugDescription)"
        case DecodingError.dataCorrupted(let context):
            context.codingPath.isEmpty
                ? context.debugDescription
                : "wrong value at \(context.codingPath.map(\.stringValue).joined(separator: ".")): \(context.debugDescription)"
        default: "\(error)"
        }
    }
}
