import CorkboardHub
import CorkboardModel
import Foundation

/// Roles by token, read from `--tokens tokens.json` (docs/protocol.md#3-joining,
/// docs/protocol.md#8-http-api, docs/security.md#access-control):
///
/// ```json
/// {"tokens": [
///   {"token": "s3cret-owner", "role": "owner", "boards": "*"},
///   {"token": "team-a", "role": "editor", "boards": ["sprint", "backlog", "team-a-*"]},
///   {"token": "wall-display", "role": "viewer", "boards": ["sprint"]},
///   {"token": "ci-bot", "role": "editor", "boards": ["sprint"], "name": "ci-bot"},
///   {"token": "prometheus", "role": "viewer", "boards": [], "metrics": true}
/// ]}
/// ```
///
/// The file is read strictly, because a mistake in it must never grant more than was meant:
/// every grant needs `token`, `role` and `boards` (`"*"` for every board: never implied), and
/// an unknown key (`board` for `boards`) or role refuses the whole file with a line naming
/// the grant. A missing token, an unknown one, or one used on a board it does not cover
/// grants nothing. `GET /metrics` takes an owner of every board or a grant with `"metrics": true`.
///
/// Tokens are kept as SHA-256 digests and a presented token is compared with every one of
/// them without an early exit, so response times do not reveal how close a guess came.
public struct TokenFile: Sendable {
    public struct Grant: Sendable, Hashable {
        public var token: String
        public var role: Role
        public var boards: BoardScope
        /// May read `GET /metrics` (an owner of every board may anyway).
        public var metrics: Bool
        /// Who the commits made with this token are by (`TokenHolder.grantName`); nil: the name in `hello`.
        public var name: String?

        public init(token: String, role: Role, boards: BoardScope, metrics: Bool = false, name: String? = nil) {
            self.token = token
            self.role = role
            self.boards = boards
            self.metrics = metrics
            self.name = name
        }

        var holder: TokenHolder {
            var holder = TokenHolder(role: role, boards: boards, mayReadMetrics: metrics || (role == .owner && boards == .all))
            holder.grantName = name
            return holder
        }
    }

    /// Each grant's token digest and what it grants (the token itself is not kept).
    private let grants: [(digest: TokenDigest, holder: TokenHolder)]

    public init(grants: [Grant]) throws(TokenFileError) {
        // Tokens are compared as bytes (their digests), so repeats are too.
        var seen: Set<[UInt8]> = []
        for (index, grant) in grants.enumerated() {
            guard !grant.token.isEmpty else { throw TokenFileError("tokens[\(index)]: the token must not be empty") }
            guard seen.insert(Array(grant.token.utf8)).inserted else { throw TokenFileError("tokens[\(index)]: this token appears twice") }
            if let problem = grant.boards.problem { throw TokenFileError("tokens[\(index)]: \"boards\": \(problem)") }
        }
        self.grants = grants.map { (TokenDigest($0.token), $0.holder) }
    }

    /// Reads and checks the file; the error is one line naming the file, the grant and what is wrong.
    public init(contentsOf path: String) throws(TokenFileError) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw TokenFileError("cannot read \(path)")
        }
        do {
            try self.init(grants: TokenFileReading.grants(in: data))
        } catch {
            throw TokenFileError("\(path): \(error.description)")
        }
    }

    /// The grant of `token`: every grant's digest is compared, whichever matches.
    func holder(of token: String) -> TokenHolder? {
        let presented = TokenDigest(token)
        var found: TokenHolder?
        for grant in grants where grant.digest.matches(presented) { found = grant.holder }
        return found
    }
}

extension TokenFile: AccessPolicy {
    public func judge(token: String?, checkingLifetime: Bool) -> TokenJudgement {
        guard let token else { return .missing }
        guard let holder = holder(of: token) else { return .refused("the token is not valid") }
        return .holder(holder)
    }
}

public struct TokenFileError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
