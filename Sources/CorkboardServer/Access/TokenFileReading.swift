import CorkboardHub
import CorkboardModel
import CorkboardWire
import Foundation

/// The strict reading of a token file: `{"tokens":[{"token","role","boards","metrics"?,"name"?}, …]}`
/// and nothing else. Anything the reader would otherwise skip or default (an unknown key,
/// a missing `boards`) is refused, since skipping it could only ever grant more.
enum TokenFileReading {
    static let keys: Set<String> = ["token", "role", "boards", "metrics", "name"]
    static let shape = #"{"tokens":[{"token":"…","role":"viewer|editor|owner","boards":"*" or ["id","prefix-*"],"metrics":true?,"name":"…"?}]}"#

    static func grants(in data: Data) throws(TokenFileError) -> [TokenFile.Grant] {
        let document = try strictDocument(data, "a token file", shape: shape)
        guard case .object(let top) = document, case .array(let entries)? = top["tokens"] else {
            throw TokenFileError("no \"tokens\" list; a token file is \(shape)")
        }
        if let extra = top.keys.filter({ $0 != "tokens" }).sorted().first {
            throw TokenFileError("unknown key \"\(extra)\" at the top (only \"tokens\")")
        }
        var grants: [TokenFile.Grant] = []
        for (index, entry) in entries.enumerated() {
            do {
                grants.append(try grant(entry))
            } catch {
                throw TokenFileError("tokens[\(index)]: \(error.description)")
            }
        }
        return grants
    }

    /// The JSON of one of the server's own files (the token file, the revocations file), read
    /// strictly: a key given twice is refused, not read as its first or last value, since either
    /// could grant more than meant. `kind` and `shape` say what the file should be.
    static func strictDocument(_ data: Data, _ kind: String, shape: String) throws(TokenFileError) -> JSONValue {
        do throws(StrictJSON.Refusal) {
            return try StrictJSON.parse(data)
        } catch {
            guard let key = error.repeatedKey else { throw TokenFileError("not JSON; \(kind) is \(shape)") }
            throw TokenFileError("the key \"\(key)\" is given twice in one object; each may be given once")
        }
    }

    private static func grant(_ entry: JSONValue) throws(TokenFileError) -> TokenFile.Grant {
        guard case .object(let fields) = entry else { throw TokenFileError("a grant is an object with token, role and boards") }
        if let unknown = fields.keys.filter({ !keys.contains($0) }).sorted().first {
            throw TokenFileError("unknown key \"\(unknown)\" (a grant has token, role, boards, metrics and name)")
        }
        guard case .string(let token)? = fields["token"] else { throw TokenFileError("\"token\" must be a string") }
        guard case .string(let roleName)? = fields["role"] else { throw TokenFileError("\"role\" must be viewer, editor or owner") }
        guard let role = Role(rawValue: roleName) else {
            throw TokenFileError("role \"\(roleName)\" is not one of viewer, editor, owner")
        }
        guard let boardsValue = fields["boards"] else {
            throw TokenFileError("\"boards\" is missing: write \"*\" for every board, or a list of ids and patterns")
        }
        let boards = try scope(boardsValue)
        var metrics = false
        switch fields["metrics"] {
        case nil: break
        case .bool(let value)?: metrics = value
        default: throw TokenFileError("\"metrics\" must be true or false")
        }
        var name: String?
        switch fields["name"] {
        case nil: break
        case .string(let value)? where !value.isEmpty && Limits.isValidName(value): name = value
        default: throw TokenFileError("\"name\" must be a non-empty string of at most \(Limits.maximumNameBytes) bytes, without NUL")
        }
        return TokenFile.Grant(token: token, role: role, boards: boards, metrics: metrics, name: name)
    }

    /// `"*"`, or a list of board ids and `prefix-*` patterns (`BoardGrant`, docs/security.md#access-control).
    static func scope(_ value: JSONValue) throws(TokenFileError) -> BoardScope {
        switch value {
        case .string("*"):
            return .all
        case .array(let entries):
            var ids: Set<String> = []
            for entry in entries {
                guard case .string(let id) = entry, !id.isEmpty else {
                    throw TokenFileError("\"boards\" holds board ids and patterns (non-empty strings)")
                }
                if let problem = BoardGrant.problem(with: id) { throw TokenFileError("\"boards\": \(problem)") }
                ids.insert(id)
            }
            return .listed(ids)
        default:
            throw TokenFileError("\"boards\" must be \"*\" (every board) or a list of board ids and patterns")
        }
    }
}
