import CorkboardHub
import CorkboardModel
import Foundation

/// What a signed token says about its holder (docs/security.md#signed-tokens): `sub` (the user
/// id in the app), `name` (shown to the others), `boards` (`"*"` or ids and `prefix-*`
/// patterns), `role`, `exp` (required), and optionally `nbf`, `iat` (when it was issued: a
/// revocation of its user refuses the tokens issued before it) and `jti` (its own id, by which
/// it alone can be revoked); times in seconds since 1970.
public struct SignedTokenClaims: Sendable, Equatable {
    public var subject: String
    public var name: String
    public var boards: BoardScope
    public var role: Role
    public var expires: Date
    public var notBefore: Date?
    public var issuedAt: Date?
    public var tokenID: String?

    public init(
        subject: String, name: String, boards: BoardScope, role: Role, expires: Date, notBefore: Date? = nil, issuedAt: Date? = nil,
        tokenID: String? = nil
    ) {
        self.subject = subject
        self.name = name
        self.boards = boards
        self.role = role
        self.expires = expires
        self.notBefore = notBefore
        self.issuedAt = issuedAt
        self.tokenID = tokenID
    }

    /// What the token grants: an owner of every board may also read `/metrics`, as in the token file.
    public var holder: TokenHolder {
        var holder = TokenHolder(role: role, boards: boards, mayReadMetrics: role == .owner && boards == .all, subject: subject, name: name)
        holder.expires = expires
        holder.issuedAt = issuedAt
        holder.tokenID = tokenID
        return holder
    }

    /// Reads the payload; the error says which claim is wrong.
    init(payload: JSONValue) throws(TokenRefusal) {
        guard case .object(let claims) = payload else { throw TokenRefusal("the payload is not a JSON object") }
        guard case .string(let subject)? = claims["sub"], !subject.isEmpty else { throw TokenRefusal("\"sub\" (the user id) is missing") }
        guard case .string(let name)? = claims["name"] else { throw TokenRefusal("\"name\" is missing") }
        guard case .string(let roleName)? = claims["role"], let role = Role(rawValue: roleName) else {
            throw TokenRefusal("\"role\" must be viewer, editor or owner")
        }
        guard let boards = claims["boards"] else { throw TokenRefusal("\"boards\" is missing") }
        guard case .number(let exp)? = claims["exp"], exp.isFinite else { throw TokenRefusal("\"exp\" (seconds since 1970) is missing") }
        var notBefore: Date?
        switch claims["nbf"] {
        case nil: break
        case .number(let nbf)? where nbf.isFinite: notBefore = Date(timeIntervalSince1970: nbf)
        default: throw TokenRefusal("\"nbf\" must be seconds since 1970")
        }
        var issuedAt: Date?
        switch claims["iat"] {
        case nil: break
        case .number(let iat)? where iat.isFinite: issuedAt = Date(timeIntervalSince1970: iat)
        default: throw TokenRefusal("\"iat\" must be seconds since 1970")
        }
        var tokenID: String?
        switch claims["jti"] {
        case nil: break
        case .string(let jti)? where !jti.isEmpty: tokenID = jti
        default: throw TokenRefusal("\"jti\" must be a non-empty string")
        }
        self.init(
            subject: subject, name: name, boards: try Self.scope(boards), role: role,
            expires: Date(timeIntervalSince1970: exp), notBefore: notBefore, issuedAt: issuedAt, tokenID: tokenID)
    }

    private static func scope(_ value: JSONValue) throws(TokenRefusal) -> BoardScope {
        do {
            return try TokenFileReading.scope(value)
        } catch {
            throw TokenRefusal(error.description)
        }
    }

    /// The payload's JSON, keys in a fixed order.
    var payload: [UInt8] {
        var claims: [String: JSONValue] = [
            "sub": .string(subject), "name": .string(name), "role": .string(role.rawValue),
            "exp": .number(expires.timeIntervalSince1970.rounded(.down)),
        ]
        switch boards {
        case .all: claims["boards"] = .string("*")
        case .listed(let ids): claims["boards"] = .array(ids.sorted().map(JSONValue.string))
        }
        if let notBefore { claims["nbf"] = .number(notBefore.timeIntervalSince1970.rounded(.down)) }
        if let issuedAt { claims["iat"] = .number(issuedAt.timeIntervalSince1970.rounded(.down)) }
        if let tokenID { claims["jti"] = .string(tokenID) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array((try? encoder.encode(JSONValue.object(claims))) ?? Data())
    }
}
