import Foundation

/// The keys of a public key file (`--token-public-key-file`): one or more PEM blocks
/// `-----BEGIN PUBLIC KEY-----` (SubjectPublicKeyInfo, RFC 7468 §13), RSA or EC P-256, as
/// `openssl pkey -pubout` writes them. Any other block is refused, a private key above all:
/// the server needs only the public half, and a file it reads should not hold the other.
enum PublicKeyPEM {
    static func keys(in text: String) throws(TokenKeyProblem) -> [TokenVerificationKey] {
        var keys: [TokenVerificationKey] = []
        var rest = Substring(text)
        while let begin = rest.range(of: "-----BEGIN ") {
            guard let labelEnd = rest.range(of: "-----", range: begin.upperBound..<rest.endIndex) else {
                throw .noPublicKeyBlock
            }
            let label = String(rest[begin.upperBound..<labelEnd.lowerBound])
            guard label == "PUBLIC KEY" else { throw .notAPublicKeyBlock(label: label) }
            let number = keys.count + 1
            guard let end = rest.range(of: "-----END PUBLIC KEY-----", range: labelEnd.upperBound..<rest.endIndex),
                let der = Data(base64Encoded: String(rest[labelEnd.upperBound..<end.lowerBound].filter { !$0.isWhitespace })),
                let key = EVPKey.publicKey(subjectPublicKeyInfo: Array(der))
            else { throw .undecodablePublicKey(block: number) }
            do throws(TokenKeyProblem) {
                keys.append(try TokenVerificationKey(key: key, keyID: nil))
            } catch {
                throw .inKey(place: "public key \(number)", error)
            }
            rest = rest[end.upperBound...]
        }
        guard !keys.isEmpty else { throw .noPublicKeyBlock }
        return keys
    }
}
