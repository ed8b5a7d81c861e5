/// The little of ASN.1 DER (X.690) that turns JWS values into what OpenSSL reads: a
/// SubjectPublicKeyInfo (RFC 5280 §4.1.2.7) from a JWK's parameters, and an ECDSA-Sig-Value
/// (RFC 3279 §2.2.3) from a JWS ES256 signature, which is r||s instead (RFC 7518 §3.4).
enum DEREncoding {
    static func sequence(_ contents: [UInt8]...) -> [UInt8] {
        element(tag: 0x30, contents.flatMap { $0 })
    }

    /// A non-negative INTEGER from big-endian magnitude bytes: leading zeros dropped, and one
    /// put back when the top bit is set (else DER would read a negative number).
    static func unsignedInteger(_ magnitude: some Collection<UInt8>) -> [UInt8] {
        var bytes = Array(magnitude.drop { $0 == 0 })
        if bytes.isEmpty || bytes[0] & 0x80 != 0 { bytes.insert(0, at: 0) }
        return element(tag: 0x02, bytes)
    }

    /// A BIT STRING of whole bytes (no unused bits).
    static func bitString(_ bytes: [UInt8]) -> [UInt8] {
        element(tag: 0x03, [0] + bytes)
    }

    static let null: [UInt8] = [0x05, 0x00]
    /// 1.2.840.113549.1.1.1, rsaEncryption.
    static let rsaEncryption: [UInt8] = [0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x01]
    /// 1.2.840.10045.2.1, id-ecPublicKey.
    static let ecPublicKey: [UInt8] = [0x06, 0x07, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01]
    /// 1.2.840.10045.3.1.7, prime256v1 (P-256).
    static let prime256v1: [UInt8] = [0x06, 0x08, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07]

    /// The SubjectPublicKeyInfo of an RSA key (RFC 3279 §2.3.1): modulus `n`, exponent `e`.
    static func rsaPublicKey(modulus: [UInt8], exponent: [UInt8]) -> [UInt8] {
        sequence(sequence(rsaEncryption, null), bitString(sequence(unsignedInteger(modulus), unsignedInteger(exponent))))
    }

    /// The SubjectPublicKeyInfo of a P-256 key (RFC 5480 §2.2): the uncompressed point 04||x||y.
    static func p256PublicKey(x: [UInt8], y: [UInt8]) -> [UInt8] {
        sequence(sequence(ecPublicKey, prime256v1), bitString([0x04] + x + y))
    }

    /// The DER ECDSA-Sig-Value of a 64-byte JWS ES256 signature r||s.
    static func ecdsaSignature(rawP256 signature: [UInt8]) -> [UInt8] {
        sequence(unsignedInteger(signature[0..<32]), unsignedInteger(signature[32..<64]))
    }

    private static func element(tag: UInt8, _ contents: [UInt8]) -> [UInt8] {
        [tag] + length(contents.count) + contents
    }

    /// Short form below 128, else the long form with as many bytes as the length needs.
    private static func length(_ count: Int) -> [UInt8] {
        guard count >= 0x80 else { return [UInt8(count)] }
        var bytes: [UInt8] = []
        var rest = count
        while rest > 0 {
            bytes.insert(UInt8(rest & 0xFF), at: 0)
            rest >>= 8
        }
        return [0x80 | UInt8(bytes.count)] + bytes
    }
}
