import Foundation

extension TokenVerificationKey {
    /// The keys of the public key file and the JWK Set file the server is given (either may be
    /// nil; none when both are), read at start and again on SIGHUP. The error is one line
    /// naming the file and, in a set, the key.
    public static func keys(publicKeyFile: String?, jwksFile: String?) throws(TokenFileError) -> [TokenVerificationKey] {
        var keys: [TokenVerificationKey] = []
        if let path = publicKeyFile {
            keys += try read(path) { data throws(TokenKeyProblem) in
                guard let text = String(data: data, encoding: .utf8) else { throw .noPublicKeyBlock }
                return try PublicKeyPEM.keys(in: text)
            }
        }
        if let path = jwksFile {
            keys += try read(path) { data throws(TokenKeyProblem) in try JWKSet.keys(in: data) }
        }
        return keys
    }

    private static func read(
        _ path: String, _ parse: (Data) throws(TokenKeyProblem) -> [TokenVerificationKey]
    ) throws(TokenFileError) -> [TokenVerificationKey] {
        do throws(TokenKeyProblem) {
            guard let data = FileManager.default.contents(atPath: path) else { throw .unreadable }
            return try parse(data)
        } catch {
            throw TokenFileError("\(path): \(error.description)")
        }
    }
}
