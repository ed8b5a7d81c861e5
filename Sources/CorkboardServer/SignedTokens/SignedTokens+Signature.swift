import CorkboardModel

extension SignedTokens {
    /// The algorithms tokens may name here: HS256 with a secret, RS256 and ES256 with a public key of their kind.
    var acceptedAlgorithms: [TokenAlgorithm] {
        TokenAlgorithm.allCases.filter { algorithm in
            algorithm == .hs256 ? !secrets.isEmpty : keys.contains { $0.algorithm == algorithm }
        }
    }

    /// "only HS256 is accepted", "only RS256 and ES256 are accepted".
    var acceptedAlgorithmsPhrase: String {
        let accepted = acceptedAlgorithms
        return "only \(TokenAlgorithm.list(accepted)) \(accepted.count == 1 ? "is" : "are") accepted"
    }

    /// Nil when a secret (HS256) or a public key of `algorithm` signs `signingInput` with
    /// `signature`; otherwise why not. A header's `kid` picks the keys of a JWK Set with that
    /// id; PEM keys carry no id and are tried whatever the `kid`. Without a `kid`, every key of
    /// the algorithm is tried (a few at most, while one is being rotated).
    func signatureRefusal(_ signature: [UInt8], of signingInput: [UInt8], algorithm: TokenAlgorithm, keyID: JSONValue?) -> TokenRefusal? {
        let invalid = TokenRefusal("the token's signature is not valid")
        switch algorithm {
        case .hs256:
            // Every secret is compared, matched or not, as before keys came.
            var signed = false
            for secret in secrets where HMACSHA256.equal(HMACSHA256.mac(key: secret, message: signingInput), signature) { signed = true }
            return signed ? nil : invalid
        case .rs256, .es256:
            var wanted: String?
            switch keyID {
            case nil: break
            case .string(let kid)?: wanted = kid
            default: return TokenRefusal("the token is malformed (its header's kid is not a string)")
            }
            let candidates = keys.filter { $0.algorithm == algorithm && (wanted == nil || $0.keyID == nil || $0.keyID == wanted) }
            guard !candidates.isEmpty else {
                // Said so: a backend signing with a key not yet (or no longer) published.
                return TokenRefusal("the token's kid \"\(wanted?.prefix(64) ?? "")\" names no \(algorithm.rawValue) key in force")
            }
            if algorithm == .es256 && signature.count != TokenVerificationKey.es256SignatureBytes {
                return TokenRefusal(
                    "the token's signature is not valid (an ES256 signature is r||s, \(TokenVerificationKey.es256SignatureBytes) bytes, not \(signature.count))"
                )
            }
            for key in candidates where key.verifies(signature: signature, of: signingInput) { return nil }
            return invalid
        }
    }
}
