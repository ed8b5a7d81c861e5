import COpenSSL

/// An OpenSSL `EVP_PKEY`, freed with its last reference. It is Sendable because nothing
/// changes it once made: verifying and signing only read it (each call makes its own
/// `EVP_MD_CTX`), which OpenSSL allows from any number of threads at once.
final class EVPKey: @unchecked Sendable {
    let pointer: OpaquePointer

    init(taking pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit {
        EVP_PKEY_free(pointer)
    }

    /// A key from DER SubjectPublicKeyInfo; nil when OpenSSL cannot read it (an EC point off
    /// its curve included) or when bytes follow it, which d2i would otherwise ignore.
    static func publicKey(subjectPublicKeyInfo der: [UInt8]) -> EVPKey? {
        defer { ERR_clear_error() }
        let key = der.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            guard let start = buffer.baseAddress else { return nil }
            var cursor: UnsafePointer<UInt8>? = start
            guard let key = d2i_PUBKEY(nil, &cursor, buffer.count) else { return nil }
            guard cursor == start + buffer.count else {
                EVP_PKEY_free(key)
                return nil
            }
            return key
        }
        return key.map(EVPKey.init(taking:))
    }

    /// The algorithm a token must name to be checked with (or signed by) this key: RS256 for
    /// RSA of at least 2048 bits, ES256 for EC on P-256; anything else is refused.
    func algorithm() throws(TokenKeyProblem) -> TokenAlgorithm {
        switch EVP_PKEY_get_base_id(pointer) {
        case EVP_PKEY_RSA:
            let bits = Int(EVP_PKEY_get_bits(pointer))
            // NIST SP 800-131A: RSA below 2048 bits no longer protects a signature.
            guard bits >= 2048 else { throw .rsaKeyTooShort(bits: bits) }
            guard passesPublicKeyCheck() else { throw .failsPublicKeyCheck }
            return .rs256
        case EVP_PKEY_EC:
            let curve = groupName()
            guard curve == "prime256v1" else { throw .unsupportedCurve(curve) }
            guard passesPublicKeyCheck() else { throw .failsPublicKeyCheck }
            return .es256
        case let other:
            let name = OBJ_nid2sn(other).map { String(cString: $0) } ?? "type \(other)"
            throw .unsupportedKeyType(name)
        }
    }

    /// True when OpenSSL's public key check holds: for RSA an odd exponent of 17 to 256 bits and
    /// a modulus without small factors (SP 800-56B; an exponent of 1 would let anyone sign),
    /// for EC a point on the curve.
    func passesPublicKeyCheck() -> Bool {
        guard let context = EVP_PKEY_CTX_new_from_pkey(nil, pointer, nil) else { return false }
        defer {
            EVP_PKEY_CTX_free(context)
            ERR_clear_error()
        }
        return EVP_PKEY_public_check(context) == 1
    }

    /// Size in bytes of a signature by this key (an RSA signature is as long as the modulus).
    var signatureBytes: Int { Int(EVP_PKEY_get_size(pointer)) }

    /// True when `signature` is this key's RSASSA-PKCS1-v1_5 or DER ECDSA signature of
    /// SHA-256(`message`).
    func verifies(signature: [UInt8], of message: [UInt8]) -> Bool {
        guard let context = EVP_MD_CTX_new() else { return false }
        defer {
            EVP_MD_CTX_free(context)
            // A failed check leaves errors on this thread's queue; TLS on the same thread reads it.
            ERR_clear_error()
        }
        guard EVP_DigestVerifyInit(context, nil, EVP_sha256(), nil, pointer) == 1 else { return false }
        return EVP_DigestVerify(context, signature, signature.count, message, message.count) == 1
    }

    /// The RSASSA-PKCS1-v1_5 or DER ECDSA signature of SHA-256(`message`) by this private key.
    func sign(_ message: [UInt8]) -> [UInt8]? {
        guard let context = EVP_MD_CTX_new() else { return nil }
        defer {
            EVP_MD_CTX_free(context)
            ERR_clear_error()
        }
        guard EVP_DigestSignInit(context, nil, EVP_sha256(), nil, pointer) == 1 else { return nil }
        var length = 0
        guard EVP_DigestSign(context, nil, &length, message, message.count) == 1 else { return nil }
        var signature = [UInt8](repeating: 0, count: length)
        guard EVP_DigestSign(context, &signature, &length, message, message.count) == 1 else { return nil }
        return Array(signature.prefix(length))
    }

    private func groupName() -> String {
        var name = [CChar](repeating: 0, count: 64)
        var length = 0
        guard EVP_PKEY_get_group_name(pointer, &name, name.count, &length) == 1 else {
            ERR_clear_error()
            return "an unnamed curve"
        }
        return String(decoding: name.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
