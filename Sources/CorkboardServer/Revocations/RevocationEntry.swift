import CorkboardModel
import CorkboardStore
import CorkboardWire
import Foundation

/// One revocation as JSON, in the revocations file and over the API (docs/security.md#revoking-tokens):
/// `{"sub":"user-7"}`, `{"sub":"user-7","issuedBefore":1795575000}` or `{"jti":"t-123"}`; read
/// strictly, since a key skipped could only ever revoke less than was meant.
enum RevocationEntry {
    static let shape = #"{"sub":"…","issuedBefore":seconds?} or {"jti":"…"}"#

    /// The revocation `value` describes. `defaultIssuedBefore`: the `issuedBefore` of a `sub`
    /// that gives none (nil: every token of the user).
    static func revocation(_ value: JSONValue, defaultIssuedBefore: Date?, now: Date) throws(RevocationEntryError) -> TokenRevocation {
        guard case .object(let fields) = value else { throw RevocationEntryError("a revocation is an object: \(shape)") }
        if let unknown = fields.keys.filter({ !["sub", "jti", "issuedBefore"].contains($0) }).sorted().first {
            throw RevocationEntryError("unknown key \"\(unknown)\" (a revocation has sub and issuedBefore, or jti)")
        }
        switch (fields["sub"], fields["jti"]) {
        case (.string(let subject)?, nil):
            try check(subject, "sub")
            var issuedBefore = defaultIssuedBefore
            switch fields["issuedBefore"] {
            case nil: break
            case .number(let seconds)? where seconds.isFinite && seconds >= 0 && seconds.rounded() == seconds && seconds < 1e15:
                issuedBefore = Date(timeIntervalSince1970: seconds)
            default: throw RevocationEntryError("\"issuedBefore\" must be whole seconds since 1970")
            }
            return TokenRevocation(.subject(subject), issuedBefore: issuedBefore, revokedAt: now)
        case (nil, .string(let id)?):
            try check(id, "jti")
            guard fields["issuedBefore"] == nil else {
                throw RevocationEntryError("\"issuedBefore\" goes with \"sub\"; a jti names one token")
            }
            return TokenRevocation(.tokenID(id), revokedAt: now)
        case (nil, nil):
            throw RevocationEntryError("a revocation names \"sub\" (a user) or \"jti\" (one token): \(shape)")
        case (.some, .some):
            throw RevocationEntryError("a revocation names \"sub\" or \"jti\", not both")
        default:
            throw RevocationEntryError("\"sub\" and \"jti\" are strings")
        }
    }

    /// A claim value as tokens may carry it (`Limits.nameProblem`: at most 256 bytes, no NUL).
    private static func check(_ value: String, _ claim: String) throws(RevocationEntryError) {
        guard !value.isEmpty else { throw RevocationEntryError("\"\(claim)\" is empty") }
        if let problem = Limits.nameProblem(value) { throw RevocationEntryError("\"\(claim)\" \(problem)") }
    }

    /// The revocation as JSON, as listed and answered: its target, `issuedBefore` (seconds)
    /// for a user, and `revokedAt` (milliseconds since 1970, as every time of the API).
    static func json(_ revocation: TokenRevocation) -> JSONValue {
        var fields: [String: JSONValue] = [
            revocation.target.kind: .string(revocation.target.value), "revokedAt": .number(Double(revocation.revokedAtMilliseconds)),
        ]
        if let issuedBefore = revocation.issuedBeforeSeconds { fields["issuedBefore"] = .number(Double(issuedBefore)) }
        return .object(fields)
    }

    /// The `issuedBefore` of a user revoked now over the API: every token issued up to this
    /// second (a token's `iat` is whole seconds), so one minted in the same second as the
    /// revocation is refused too, and the backend's next one a second later is not.
    static func issuedBefore(revokingAt now: Date) -> Date {
        Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down) + 1)
    }
}

struct RevocationEntryError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
