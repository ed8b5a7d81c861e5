import COpenSSL

/// HMAC-SHA256 (RFC 2104) by OpenSSL, and the comparison of two MACs in constant time.
enum HMACSHA256 {
    static func mac(key: [UInt8], message: some Collection<UInt8>) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let input = Array(message)
        key.withUnsafeBytes { keyBytes in
            input.withUnsafeBytes { messageBytes in
                // A zero-length key still needs a non-null pointer.
                let keyPointer = keyBytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!
                _ = HMAC(EVP_sha256(), keyPointer, Int32(keyBytes.count), messageBytes.baseAddress, messageBytes.count, &out, &length)
            }
        }
        return Array(out[0..<Int(length)])
    }

    /// True when both are equal, in time that does not depend on where they differ
    /// (a forger could otherwise find a valid signature byte by byte).
    static func equal(_ first: [UInt8], _ second: [UInt8]) -> Bool {
        guard first.count == second.count, !first.isEmpty else { return false }
        return first.withUnsafeBytes { a in second.withUnsafeBytes { b in CRYPTO_memcmp(a.baseAddress, b.baseAddress, a.count) == 0 } }
    }
}
