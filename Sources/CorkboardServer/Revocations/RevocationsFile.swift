import CorkboardModel
import CorkboardStore
import CorkboardWire
import Foundation

/// The revocations file (`--revocations`, docs/security.md#revoking-tokens):
/// `{"revocations":[{"sub":"user-7"},{"jti":"t-123"}]}`, read at start and again on SIGHUP, for
/// an operator who keeps them beside the token secret rather than in the store. A `sub` without
/// `issuedBefore` revokes every token of that user, whenever issued.
enum RevocationsFile {
    static let shape = #"{"revocations":[{"sub":"…","issuedBefore":seconds?} or {"jti":"…"}]}"#

    static func read(_ path: String, now: Date = Date()) throws(TokenFileError) -> [TokenRevocation] {
        guard let data = FileManager.default.contents(atPath: path) else { throw TokenFileError("cannot read the revocations file \(path)") }
        let document: JSONValue
        do {
            document = try TokenFileReading.strictDocument(data, "a revocations file", shape: shape)
        } catch {
            throw TokenFileError("\(path): \(error.description)")
        }
        guard case .object(let top) = document, case .array(let entries)? = top["revocations"], top.count == 1 else {
            throw TokenFileError("\(path): a revocations file is \(shape) and nothing else")
        }
        var revocations: [TokenRevocation] = []
        for (index, entry) in entries.enumerated() {
            do {
                revocations.append(try RevocationEntry.revocation(entry, defaultIssuedBefore: nil, now: now))
            } catch {
                throw TokenFileError("\(path): revocations[\(index)]: \(error.description)")
            }
        }
        return revocations
    }
}
