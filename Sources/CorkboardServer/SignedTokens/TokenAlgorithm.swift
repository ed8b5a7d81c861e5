/// The JWS algorithms (RFC 7518 §3.1) a signed token may name in its header's `alg`. Each is
/// tied to one kind of key: `HS256` to the shared secrets only, `RS256` to RSA public keys only,
/// `ES256` to EC P-256 public keys only — so a token cannot pick how its key is used (a public
/// key, which anyone may read, must never serve as an HMAC secret).
public enum TokenAlgorithm: String, Sendable, CaseIterable {
    /// HMAC-SHA256 under a secret shared with the app's backend.
    case hs256 = "HS256"
    /// RSASSA-PKCS1-v1_5 with SHA-256, checked with an RSA public key.
    case rs256 = "RS256"
    /// ECDSA on P-256 with SHA-256, checked with an EC public key; the signature is r||s.
    case es256 = "ES256"

    /// "HS256", "RS256 and ES256", "HS256, RS256 and ES256": for refusals.
    static func list(_ algorithms: [TokenAlgorithm]) -> String {
        let names = algorithms.map(\.rawValue)
        guard names.count > 1 else { return names.joined() }
        return names.dropLast().joined(separator: ", ") + " and " + names[names.count - 1]
    }
}
