import CorkboardHub
import CorkboardModel
import CorkboardWire
import Foundation

/// Per-user tokens minted by the app's own backend: JWTs (RFC 7519) signed with HMAC-SHA256
/// (`alg` `HS256`) under a secret shared with the server (`--token-secret`,
/// `--token-secret-file`; docs/security.md#signed-tokens), or with RS256 or ES256 under a
/// private key whose public half the server holds (`--token-public-key-file`,
/// `--token-jwks-file`; see `TokenVerificationKey`). Every other `alg`, `none` included, and
/// any `alg` without a key of its kind in force, is refused.
///
/// Several secrets may be in force at once (one per line of the secret file), so a secret is
/// rotated without a gap: add the new one, move the backend to it, then remove the old one.
public struct SignedTokens: Sendable {
    /// RFC 7518 §3.2: a key at least as long as the hash.
    public static let minimumSecretBytes = 32
    /// Clock skew between the backend that mints and this server, allowed on `exp` and `nbf`.
    public static let leeway: TimeInterval = 30

    let secrets: [[UInt8]]
    let keys: [TokenVerificationKey]

    public init(secrets: [String]) throws(TokenFileError) {
        try self.init(secrets: secrets, keys: [])
    }

    /// Secrets, public keys, or both; at least one of them.
    public init(secrets: [String], keys: [TokenVerificationKey]) throws(TokenFileError) {
        if keys.isEmpty || !secrets.isEmpty { try Self.check(secrets) }
        self.secrets = secrets.map { Array($0.utf8) }
        self.keys = keys
    }

    /// The secrets of a secret file: one a line, blank lines and surrounding spaces ignored.
    public static func secrets(inFile path: String) throws(TokenFileError) -> [String] {
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            throw TokenFileError("cannot read the token secret file \(path)")
        }
        let secrets = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        do {
            try check(secrets)
        } catch {
            throw TokenFileError("\(path): \(error.description)")
        }
        return secrets
    }

    private static func check(_ secrets: [String]) throws(TokenFileError) {
        guard !secrets.isEmpty else { throw TokenFileError("no token secret given") }
        for secret in secrets where secret.utf8.count < minimumSecretBytes {
            throw TokenFileError("a token secret must be at least \(minimumSecretBytes) bytes long (openssl rand -hex 32)")
        }
    }

    /// A token for `claims`, signed with the first secret (RS256 and ES256 tokens are minted
    /// with a private key: `TokenSigningKey`).
    public func mint(_ claims: SignedTokenClaims) -> String {
        precondition(!secrets.isEmpty, "HS256 tokens are minted with a secret")
        let header = Base64URL.encode(Array(#"{"alg":"HS256","typ":"JWT"}"#.utf8))
        let signingInput = header + "." + Base64URL.encode(claims.payload)
        return signingInput + "." + Base64URL.encode(HMACSHA256.mac(key: secrets[0], message: Array(signingInput.utf8)))
    }

    /// The claims of `token` once its form, `alg`, signature and (with `checkingLifetime`)
    /// `exp` and `nbf` hold at `now`; otherwise why not, for the client.
    public func verify(_ token: String, now: Date = Date(), checkingLifetime: Bool = true) -> Result<SignedTokenClaims, TokenRefusal> {
        guard token.utf8.count <= ServerAccess.maximumTokenBytes else {
            return .failure(TokenRefusal("the token is longer than \(ServerAccess.maximumTokenBytes) bytes"))
        }
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let headerBytes = Base64URL.decode(parts[0]), let payloadBytes = Base64URL.decode(parts[1]),
            let signature = Base64URL.decode(parts[2])
        else { return .failure(TokenRefusal("the token is malformed (not three base64url parts)")) }
        // RFC 7519 §4: a claim given twice is refused, not read as the first or the last.
        guard case .object(let header)? = try? StrictJSON.parse(Data(headerBytes)) else {
            return .failure(TokenRefusal("the token is malformed (its header is not a JSON object)"))
        }
        guard let algorithm = header["alg"]?.stringValue.flatMap(TokenAlgorithm.init), acceptedAlgorithms.contains(algorithm) else {
            return .failure(TokenRefusal("the token's alg is \(header["alg"]?.stringValue ?? "missing"); \(acceptedAlgorithmsPhrase)"))
        }
        // RFC 7515 §4.1.11: an extension the server does not understand must not be ignored.
        guard header["crit"] == nil else { return .failure(TokenRefusal("the token's header has crit, which is not supported")) }
        let signingInput = Array(token.utf8.prefix(parts[0].utf8.count + 1 + parts[1].utf8.count))
        if let refusal = signatureRefusal(signature, of: signingInput, algorithm: algorithm, keyID: header["kid"]) {
            return .failure(refusal)
        }
        let payload: JSONValue
        do throws(StrictJSON.Refusal) {
            payload = try StrictJSON.parse(Data(payloadBytes))
        } catch {
            return .failure(TokenRefusal("the token is malformed (the payload is not JSON: \(error.description))"))
        }
        let claims: SignedTokenClaims
        do {
            claims = try SignedTokenClaims(payload: payload)
        } catch {
            return .failure(TokenRefusal("the token is malformed (\(error.description))"))
        }
        if checkingLifetime {
            guard now.timeIntervalSince(claims.expires) < Self.leeway else {
                return .failure(TokenRefusal("the token expired at \(Self.timestamp(claims.expires))"))
            }
            if let notBefore = claims.notBefore, notBefore.timeIntervalSince(now) > Self.leeway {
                return .failure(TokenRefusal("the token is not valid before \(Self.timestamp(notBefore))"))
            }
        }
        return .success(claims)
    }

    private static func timestamp(_ date: Date) -> String {
        date.formatted(.iso8601)
    }
}

/// Why a signed token proves nothing, as the client is told it.
public struct TokenRefusal: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
