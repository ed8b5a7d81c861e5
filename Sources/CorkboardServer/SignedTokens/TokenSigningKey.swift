import COpenSSL
import CorkboardModel
import Foundation

/// A private key that mints RS256 or ES256 tokens (`corkboard token mint --private-key`), as an
/// app's backend does with a JWT library: PEM, RSA of at least 2048 bits or EC on P-256. The
/// server never holds one; it checks the tokens with the public half.
public struct TokenSigningKey: Sendable {
    public let algorithm: TokenAlgorithm
    private let key: EVPKey

    /// Reads the first private key of a PEM file (PKCS #8 `PRIVATE KEY`, or `RSA PRIVATE KEY`
    /// and `EC PRIVATE KEY`); a key under a passphrase is refused rather than prompted for.
    public init(pemFile path: String) throws(TokenFileError) {
        guard let data = FileManager.default.contents(atPath: path) else { throw TokenFileError("\(path): cannot be read") }
        defer { ERR_clear_error() }
        let bytes = Array(data)
        let read = bytes.withUnsafeBytes { buffer -> OpaquePointer? in
            guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count)) else { return nil }
            defer { BIO_free(bio) }
            return PEM_read_bio_PrivateKey(bio, nil, { _, _, _, _ in 0 }, nil)
        }
        guard let read else { throw TokenFileError("\(path): holds no PEM private key without a passphrase") }
        key = EVPKey(taking: read)
        do {
            algorithm = try key.algorithm()
        } catch {
            throw TokenFileError("\(path): \(error.description)")
        }
    }

    /// A token for `claims` naming `keyID` as its `kid` (the id of the public key in the
    /// server's JWK Set), signed with this key.
    public func mint(_ claims: SignedTokenClaims, keyID: String? = nil) -> String {
        var header: [String: JSONValue] = ["alg": .string(algorithm.rawValue), "typ": "JWT"]
        if let keyID { header["kid"] = .string(keyID) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let headerBytes = Array((try? encoder.encode(JSONValue.object(header))) ?? Data())
        let signingInput = Base64URL.encode(headerBytes) + "." + Base64URL.encode(claims.payload)
        guard let signature = key.sign(Array(signingInput.utf8)) else { preconditionFailure("OpenSSL could not sign with a key it read") }
        return signingInput + "." + Base64URL.encode(algorithm == .es256 ? Self.rawSignature(derECDSA: signature) : signature)
    }

    /// The JWS form r||s (32 bytes each) of OpenSSL's DER ECDSA signature.
    private static func rawSignature(derECDSA der: [UInt8]) -> [UInt8] {
        der.withUnsafeBufferPointer { buffer in
            var cursor = buffer.baseAddress
            guard let signature = d2i_ECDSA_SIG(nil, &cursor, buffer.count) else { preconditionFailure("OpenSSL signed no DER") }
            defer { ECDSA_SIG_free(signature) }
            var raw = [UInt8](repeating: 0, count: TokenVerificationKey.es256SignatureBytes)
            raw.withUnsafeMutableBufferPointer { out in
                _ = BN_bn2binpad(ECDSA_SIG_get0_r(signature), out.baseAddress, 32)
                _ = BN_bn2binpad(ECDSA_SIG_get0_s(signature), out.baseAddress! + 32, 32)
            }
            return raw
        }
    }
}
