import CorkboardModel
import CorkboardWire
import Foundation

/// The keys of a JWK Set file (`--token-jwks-file`, RFC 7517 §5), as identity providers
/// publish them: `{"keys":[...]}`, each key `kty` `RSA` (`n`, `e`) or `EC` (`crv` `P-256`,
/// `x`, `y`), with a `kid` that tokens name to pick it, and optionally `alg` and `use`.
///
/// A key of another `kty` or `crv` stops the whole file, so that a key the operator meant to
/// be in force is never silently left out; a key whose `use` is not `sig` (an encryption key
/// published beside the signing ones) is skipped, since it checks no signature.
enum JWKSet {
    static func keys(in data: Data) throws(TokenKeyProblem) -> [TokenVerificationKey] {
        let document: JSONValue
        do throws(StrictJSON.Refusal) {
            document = try StrictJSON.parse(data)
        } catch {
            throw .jwkSetNotJSON(error.description)
        }
        guard case .object(let set) = document, case .array(let entries)? = set["keys"] else { throw .jwkSetWithoutKeys }
        var keys: [TokenVerificationKey] = []
        for (index, entry) in entries.enumerated() {
            do throws(TokenKeyProblem) {
                guard let key = try Self.key(entry) else { continue }
                if let keyID = key.keyID, keys.contains(where: { $0.keyID == keyID }) { throw .repeatedKeyID(keyID) }
                keys.append(key)
            } catch {
                throw .inKey(place: "keys[\(index)]", error)
            }
        }
        guard !keys.isEmpty else { throw .noSigningKey }
        return keys
    }

    /// The key of one JWK; nil when its `use` is not `sig`.
    private static func key(_ entry: JSONValue) throws(TokenKeyProblem) -> TokenVerificationKey? {
        guard case .object(let jwk) = entry else { throw .jwkNotAnObject }
        if let use = jwk["use"], use != .string("sig") { return nil }
        let subjectPublicKeyInfo: [UInt8]
        let expected: TokenAlgorithm
        switch jwk["kty"]?.stringValue {
        case "RSA":
            subjectPublicKeyInfo = DEREncoding.rsaPublicKey(modulus: try bytes(jwk, "n"), exponent: try bytes(jwk, "e"))
            expected = .rs256
        case "EC":
            let curve = jwk["crv"]?.stringValue ?? "missing"
            guard curve == "P-256" else { throw .jwkUnsupportedCurve(curve) }
            // RFC 7518 §6.2.1.2: each coordinate is the full 32 bytes, leading zeros kept.
            subjectPublicKeyInfo = DEREncoding.p256PublicKey(x: try bytes(jwk, "x", count: 32), y: try bytes(jwk, "y", count: 32))
            expected = .es256
        case let other:
            throw .jwkUnsupportedKeyType(other ?? "missing")
        }
        if let alg = jwk["alg"], alg != .string(expected.rawValue) {
            throw .jwkAlgorithmDoesNotFitKey(alg: alg.stringValue ?? "not a string", expected: expected)
        }
        var keyID: String?
        switch jwk["kid"] {
        case nil: break
        case .string(let kid)?: keyID = kid
        default: throw .jwkKeyIDNotAString
        }
        guard let key = EVPKey.publicKey(subjectPublicKeyInfo: subjectPublicKeyInfo) else { throw .jwkUnusableParameters }
        return try TokenVerificationKey(key: key, keyID: keyID)
    }

    private static func bytes(_ jwk: [String: JSONValue], _ name: String, count: Int? = nil) throws(TokenKeyProblem) -> [UInt8] {
        guard let text = jwk[name]?.stringValue, let bytes = Base64URL.decode(Substring(text)), !bytes.isEmpty else {
            throw .jwkMissingParameter(name)
        }
        if let count, bytes.count != count { throw .jwkParameterOfWrongLength(name, expected: count, found: bytes.count) }
        return bytes
    }
}
