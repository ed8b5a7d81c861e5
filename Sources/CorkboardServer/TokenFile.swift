import CorkboardHub
import CorkboardModel
import Foundation

/// Roles by token, read from `--tokens tokens.json` (docs/protocol.md#3-joining,
/// docs/protocol.md#8-http-api):
///
/// ```json
/// {"tokens": [
///   {"token": "s3cret-owner", "role": "owner"},
///   {"token": "team-a", "role": "editor", "boards": ["sprint", "backlog"]},
///   {"token": "wall-display", "role": "viewer", "boards": ["sprint"]},
///   {"token": "prometheus", "role": "viewer", "boards": [], "metrics": true}
/// ]}
/// ```
///
/// A token without `boards` holds its role on every board. A missing token, an unknown one,
/// or one used on a board it does not list is refused (`forbidden`). `GET /metrics` takes an
/// owner of every board (no `boards`) or a token with `"metrics": true`.
///
/// Tokens are kept as SHA-256 digests and a presented token is compared with every one of
/// them without an early exit, so response times do not reveal how close a guess came.
public struct TokenFile: AccessPolicy {
    public struct Grant: Sendable, Hashable, Codable {
        public var token: String
        public var role: Role
        /// Nil: every board.
        public var boards: [String]?
        /// May read `GET /metrics` (an owner of every board may anyway).
        public var metrics: Bool?

        public init(token: String, role: Role, boards: [String]? = nil, metrics: Bool? = nil) {
            self.token = token
            self.role = role
            self.boards = boards
            self.metrics = metrics
        }

        var mayReadMetrics: Bool { metrics == true || (role == .owner && boards == nil) }
    }

    private struct Document: Codable {
        var tokens: [Grant]
    }

    /// Each grant with its token's digest (the token itself is not kept).
    private let grants: [(digest: TokenDigest, role: Role, boards: Set<String>?, metrics: Bool)]

    public init(grants: [Grant]) throws(TokenFileError) {
        var seen: Set<String> = []
        for grant in grants {
            guard !grant.token.isEmpty else { throw TokenFileError("a token must not be empty") }
            guard seen.insert(grant.token).inserted else { throw TokenFileError("a token appears twice") }
        }
        self.grants = grants.map { ($0.digest, $0.role, $0.boards.map(Set.init), $0.mayReadMetrics) }
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
        guard let grant = grant(for: token) else { return nil }
        if let boards = grant.boards, !boards.contains(board) { return nil }
        return grant.role
    }

    public func mayReadMetrics(token: String?) -> Bool {
        grant(for: token)?.metrics ?? false
    }

    /// The grant of `token`: every grant's digest is compared, whichever matches.
    private func grant(for token: String?) -> (digest: TokenDigest, role: Role, boards: Set<String>?, metrics: Bool)? {
        guard let token else { return nil }
        let presented = TokenDigest(token)
        var found: Int?
        for (index, grant) in grants.enumerated() where grant.digest.matches(presented) { found = index }
        return found.map { grants[$0] }
    }
}

extension TokenFile.Grant {
    var digest: TokenDigest { TokenDigest(token) }
}

public struct TokenFileError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
