import Foundation

/// A revocation of signed tokens (docs/security.md#revoking-tokens): of one user's tokens
/// (`sub`), or of one token (`jti`). Kept in the store, so that every node sharing it refuses
/// the same tokens and a restart forgets none.
public struct TokenRevocation: Sendable, Hashable {
    /// What is revoked.
    public enum Target: Sendable, Hashable {
        /// The tokens of the user with this `sub`.
        case subject(String)
        /// The token with this `jti`.
        case tokenID(String)

        /// The claim it names, as stored and written on the wire: `sub` or `jti`.
        public var kind: String {
            switch self {
            case .subject: "sub"
            case .tokenID: "jti"
            }
        }

        public var value: String {
            switch self {
            case .subject(let subject): subject
            case .tokenID(let id): id
            }
        }
    }

    public var target: Target
    /// For a user: the tokens issued (`iat`) before this second are refused, and those issued
    /// from it on are not, so that the app's backend lets the user back in by minting anew.
    /// Nil: every token of the user, whenever issued. Unused for a `jti`.
    public var issuedBefore: Date?
    /// When it was made (for the listing).
    public var revokedAt: Date

    public init(_ target: Target, issuedBefore: Date? = nil, revokedAt: Date) {
        self.target = target
        self.issuedBefore = issuedBefore
        self.revokedAt = revokedAt
    }

    /// A revocation as stored and written on the wire: `issuedBefore` in whole seconds (a
    /// token's `iat` is), `revokedAt` in milliseconds (as every time of the API).
    public init(_ target: Target, issuedBeforeSeconds: Int64?, revokedAtMilliseconds: Int64) {
        self.init(
            target, issuedBefore: issuedBeforeSeconds.map { Date(timeIntervalSince1970: Double($0)) },
            revokedAt: Date(timeIntervalSince1970: Double(revokedAtMilliseconds) / 1000))
    }

    public var issuedBeforeSeconds: Int64? {
        issuedBefore.map { Int64($0.timeIntervalSince1970.rounded(.down)) }
    }

    public var revokedAtMilliseconds: Int64 {
        Int64((revokedAt.timeIntervalSince1970 * 1000).rounded(.down))
    }

    /// The target of a stored kind and value; nil for a kind this version does not know.
    public static func target(kind: String, value: String) -> Target? {
        switch kind {
        case "sub": .subject(value)
        case "jti": .tokenID(value)
        default: nil
        }
    }
}

/// What a store adds to keep revocations (every store of this package adopts it). A store
/// shared by several nodes also tells every node of each change (`StoreSignal.revocationsChanged`).
public protocol TokenRevocationStore: AnyObject, Sendable {
    /// Every revocation in force.
    func revocations(_ completion: @escaping @Sendable (Result<[TokenRevocation], StoreError>) -> Void)

    /// Puts `revocation` in force, replacing one of the same target.
    func revoke(_ revocation: TokenRevocation, _ completion: @escaping @Sendable (Result<Void, StoreError>) -> Void)

    /// Takes the revocation of `target` back: `.notFound` when there is none.
    func withdrawRevocation(of target: TokenRevocation.Target, _ completion: @escaping @Sendable (Result<Void, StoreError>) -> Void)
}
