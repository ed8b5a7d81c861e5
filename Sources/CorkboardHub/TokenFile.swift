import CorkboardModel
import Foundation

/// Roles by token, read from `--tokens tokens.json` (spec §3, §7):
///
/// ```json
/// {"tokens": [
///   {"token": "s3cret-owner", "role": "owner"},
///   {"token": "team-a", "role": "editor", "boards": ["sprint", "backlog"]},
///   {"token": "wall-display", "role": "viewer", "boards": ["sprint"]}
/// ]}
/// ```
///
/// A token without `boards` holds its role on every board. A missing token, an unknown one,
/// or one used on a board it does not list is refused (`forbidden`).
public struct TokenFile: AccessPolicy {
    public struct Grant: Sendable, Hashable, Codable {
        public var token: String
        public var role: Role
        /// Nil: every board.
        public var boards: [String]?

        public init(token: String, role: Role, boards: [String]? = nil) {
            self.token = token
            self.role = role
            self.boards = boards
        }
    }

    private struct Document: Codable {
        var tokens: [Grant]
    }

    private let grants: [String: Grant]

    public init(grants: [Grant]) throws(TokenFileError) {
        var byToken: [String: Grant] = [:]
        for grant in grants {
            guard !grant.token.isEmpty else { throw TokenFileError("a token must not be empty") }
            guard byToken[grant.token] == nil else { throw TokenFileError("a token appears twice") }
            byToken[grant.token] = grant
        }
        self.grants = byToken
    }

    /// Reads and checks the file; the error says what is wrong with it.
    public init(contentsOf path: String) throws(TokenFileError) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw TokenFileError("cannot read \(path)")
        }
        let document: Document
        do {
            document = try JSONDecoder().decode(Document.self, from: data)
        } catch {
            throw TokenFileError("\(path) is not a token file ({\"tokens\":[{\"token\",\"role\",\"boards\"?}]}): \(error)")
        }
        try self.init(grants: document.tokens)
    }

    public func role(token: String?, board: String) -> Role? {
        guard let token, let grant = grants[token] else { return nil }
        if let boards = grant.boards, !boards.contains(board) { return nil }
        return grant.role
    }
}

public struct TokenFileError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
