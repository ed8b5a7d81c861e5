/// A public key that checks RS256 or ES256 signed tokens: from a PEM file
/// (`--token-public-key-file`, see `PublicKeyPEM`) or a JWK Set (`--token-jwks-file`, see
/// `JWKSet`). Its algorithm follows from the key itself, never from a token's header.
public struct TokenVerificationKey: Sendable {
    /// The JWK's `kid`, which a token's header names to pick this key; nil for PEM keys.
    public let keyID: String?
    public let algorithm: TokenAlgorithm
    let key: EVPKey

    /// Refuses keys that are not RSA of at least 2048 bits or EC on P-256.
    init(key: EVPKey, keyID: String?) throws(TokenKeyProblem) {
        self.algorithm = try key.algorithm()
        self.keyID = keyID
        self.key = key
    }

    /// True when `signature`, as a JWS carries it (RFC 7518 §3.3, §3.4), signs `signingInput`.
    func verifies(signature: [UInt8], of signingInput: [UInt8]) -> Bool {
        switch algorithm {
        case .rs256:
            return signature.count == key.signatureBytes && key.verifies(signature: signature, of: signingInput)
        case .es256:
            // r||s, 32 bytes each; OpenSSL reads the DER form.
            guard signature.count == Self.es256SignatureBytes else { return false }
            return key.verifies(signature: DEREncoding.ecdsaSignature(rawP256: signature), of: signingInput)
        case .hs256:
            // Never: a public key is not a secret (init gives no key this algorithm).
            return false
        }
    }

    /// RFC 7518 §3.4: the 32-byte r then the 32-byte s.
    static let es256SignatureBytes = 64
}
