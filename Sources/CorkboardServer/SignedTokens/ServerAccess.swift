import CorkboardHub
import Foundation

/// The access policy of a server with a token file, a token secret, or both: a presented
/// token is looked up in the file first (every grant compared, see `TokenFile`), and when it
/// is not there and a secret is set, verified as a signed token.
public struct ServerAccess: AccessPolicy {
    public let file: TokenFile?
    public let signed: SignedTokens?

    public init(file: TokenFile?, signed: SignedTokens?) {
        self.file = file
        self.signed = signed
    }

    /// Reads the token file, the secret file and the key files the configuration names; nil
    /// when it names none of them (open mode). The error is one line saying what is wrong.
    public static func load(_ configuration: ServerConfiguration) throws(TokenFileError) -> ServerAccess? {
        let file = try configuration.tokenFile.map { path throws(TokenFileError) in try TokenFile(contentsOf: path) }
        var secrets = configuration.tokenSecrets
        if let path = configuration.tokenSecretFile { secrets += try SignedTokens.secrets(inFile: path) }
        let keys = try TokenVerificationKey.keys(publicKeyFile: configuration.tokenPublicKeyFile, jwksFile: configuration.tokenJWKSFile)
        let signed =
            try secrets.isEmpty && configuration.tokenSecretFile == nil && keys.isEmpty ? nil : SignedTokens(secrets: secrets, keys: keys)
        guard file != nil || signed != nil else { return nil }
        return ServerAccess(file: file, signed: signed)
    }

    /// The longest token looked at. A signed token of a few claims is a few hundred bytes; a
    /// longer one is refused before it is hashed or decoded, so that a client that proved
    /// nothing cannot make the server decode megabytes of base64 and JSON for it.
    public static let maximumTokenBytes = 8_192

    public func judge(token: String?, checkingLifetime: Bool) -> TokenJudgement {
        guard let token else { return .missing }
        guard token.utf8.count <= Self.maximumTokenBytes else {
            return .refused("the token is longer than \(Self.maximumTokenBytes) bytes")
        }
        if let holder = file?.holder(of: token) { return .holder(holder) }
        // A signed token is three base64url parts; anything else was meant for the file.
        guard let signed, token.utf8.count(where: { $0 == UInt8(ascii: ".") }) == 2 else { return .refused("the token is not valid") }
        switch signed.verify(token, checkingLifetime: checkingLifetime) {
        case .success(let claims): return .holder(claims.holder)
        case .failure(let reason): return .refused(reason.description)
        }
    }
}
