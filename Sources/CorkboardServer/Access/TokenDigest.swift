import COpenSSL

/// A token as the server keeps it: its SHA-256, compared without an early exit, so the time a
/// comparison takes says nothing about how much of a guess was right (and the digest's fixed
/// length says nothing about the token's length).
struct TokenDigest: Sendable, Hashable {
    let bytes: [UInt8]

    init(_ token: String) {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let input = Array(token.utf8)
        _ = input.withUnsafeBytes { raw in
            EVP_Digest(raw.baseAddress, raw.count, &digest, &length, EVP_sha256(), nil)
        }
        bytes = Array(digest[0..<Int(length)])
    }

    /// True when both digests are equal; always looks at every byte.
    func matches(_ other: TokenDigest) -> Bool {
        guard bytes.count == other.bytes.count else { return false }
        var difference: UInt8 = 0
        for index in bytes.indices { difference |= bytes[index] ^ other.bytes[index] }
        return difference == 0
    }
}
