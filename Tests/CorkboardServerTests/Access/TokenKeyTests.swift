import COpenSSL
import CorkboardHub
import CorkboardModel
import CorkboardServer
import Foundation
import Testing

/// RS256 and ES256 tokens (docs/security.md#signed-tokens): checked with public keys from a
/// PEM file or a JWK Set, each key for its own algorithm only; keys made with openssl.
@Suite struct TokenKeyTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let claims = SignedTokenClaims(
        subject: "u-7", name: "Grace Hopper", boards: ["sprint"], role: .editor, expires: now.addingTimeInterval(600))

    static func verifier(pem paths: [String] = [], jwks: String? = nil, secrets: [String] = [], in keys: TokenKeyMaterial) throws
        -> SignedTokens
    {
        let pemFile: String? =
            paths.isEmpty ? nil : try keys.directory.write("keys-\(UUID()).pem", try paths.map { try String(contentsOfFile: $0, encoding: .utf8) }.joined())
        let jwksFile = try jwks.map { try keys.directory.write("jwks-\(UUID()).json", $0) }
        return try SignedTokens(secrets: secrets, keys: TokenVerificationKey.keys(publicKeyFile: pemFile, jwksFile: jwksFile))
    }

    static func refusal(_ token: String, _ verifier: SignedTokens) -> String? {
        guard case .failure(let refusal) = verifier.verify(token, now: now) else { return nil }
        return refusal.description
    }

    /// `token` with its three parts replaced where given.
    static func replacing(_ token: String, header: String? = nil, payload: String? = nil, signature: [UInt8]? = nil) -> String {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        return [
            header.map { TokenKeyMaterial.base64url(Data($0.utf8)) } ?? parts[0],
            payload.map { TokenKeyMaterial.base64url(Data($0.utf8)) } ?? parts[1],
            signature.map { TokenKeyMaterial.base64url(Data($0)) } ?? parts[2],
        ].joined(separator: ".")
    }

    static func signatureBytes(_ token: String) throws -> [UInt8] {
        var text = String(token.split(separator: ".", omittingEmptySubsequences: false)[2])
        text = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        text += String(repeating: "=", count: (4 - text.utf8.count % 4) % 4)
        return Array(try #require(Data(base64Encoded: text)))
    }

    static func header(_ token: String) -> String {
        var text = String(token.prefix { $0 != "." })
        text += String(repeating: "=", count: (4 - text.utf8.count % 4) % 4)
        return String(decoding: Data(base64Encoded: text) ?? Data(), as: UTF8.self)
    }

    @Test func rs256AndES256TokensFromOnePEMFileAreVerified() throws {
        let keys = try TokenKeyMaterial()
        let verifier = try Self.verifier(pem: [keys.rsa.publicKey, keys.ec.publicKey], in: keys)
        let rsa = try TokenSigningKey(pemFile: keys.rsa.privateKey)
        let ec = try TokenSigningKey(pemFile: keys.ec.privateKey)
        #expect(rsa.algorithm == .rs256 && ec.algorithm == .es256)
        for signer in [rsa, ec] {
            let token = signer.mint(Self.claims)
            #expect(Self.header(token) == #"{"alg":"\#(signer.algorithm.rawValue)","typ":"JWT"}"#)
            #expect(try verifier.verify(token, now: Self.now).get() == Self.claims)
        }
        #expect(try Self.signatureBytes(rsa.mint(Self.claims)).count == 256)
        #expect(try Self.signatureBytes(ec.mint(Self.claims)).count == 64)
        // The lifetime is checked as for HS256.
        #expect(Self.refusal(ec.mint(Self.claims), verifier) == nil)
        #expect(verifier.verify(ec.mint(Self.claims), now: Self.now.addingTimeInterval(3600)).isFailure)
    }

    @Test func aTamperedTokenOrAnotherKeyIsRefused() throws {
        let keys = try TokenKeyMaterial()
        let verifier = try Self.verifier(pem: [keys.rsa.publicKey, keys.ec.publicKey], in: keys)
        for privateKey in [keys.rsa.privateKey, keys.ec.privateKey] {
            let token = try TokenSigningKey(pemFile: privateKey).mint(Self.claims)
            let owner = #"{"boards":"*","exp":1900000000,"name":"Grace Hopper","role":"owner","sub":"u-7"}"#
            #expect(Self.refusal(Self.replacing(token, payload: owner), verifier) == "the token's signature is not valid")
            var signature = try Self.signatureBytes(token)
            signature[10] ^= 1
            #expect(Self.refusal(Self.replacing(token, signature: signature), verifier) == "the token's signature is not valid")
        }
        let stranger = try TokenSigningKey(pemFile: keys.otherEC.privateKey).mint(Self.claims)
        #expect(Self.refusal(stranger, verifier) == "the token's signature is not valid")
    }

    @Test func theHeadersAlgMustBeTheKeysOwn() throws {
        let keys = try TokenKeyMaterial()
        let ecOnly = try Self.verifier(pem: [keys.ec.publicKey], in: keys)
        let rsaToken = try TokenSigningKey(pemFile: keys.rsa.privateKey).mint(Self.claims)
        #expect(Self.refusal(rsaToken, ecOnly) == "the token's alg is RS256; only ES256 is accepted")

        // The classic confusion: HS256 "signed" with the public key, which anyone can read, as
        // the HMAC secret. Refused with keys only, and with a secret beside them.
        let ecToken = try TokenSigningKey(pemFile: keys.ec.privateKey).mint(Self.claims)
        let publicKeyBytes = Array(try keys.pem(keys.ec).utf8)
        let hs256Header = TokenKeyMaterial.base64url(Data(#"{"alg":"HS256","typ":"JWT"}"#.utf8))
        let signingInput = hs256Header + "." + ecToken.split(separator: ".")[1]
        let confused = signingInput + "." + TokenKeyMaterial.base64url(Self.hmac(key: publicKeyBytes, Array(signingInput.utf8)))
        #expect(Self.refusal(confused, ecOnly) == "the token's alg is HS256; only ES256 is accepted")
        let withSecret = try Self.verifier(pem: [keys.ec.publicKey], secrets: [String(repeating: "s", count: 32)], in: keys)
        #expect(Self.refusal(confused, withSecret) == "the token's signature is not valid")
        #expect(Self.refusal(ecToken, withSecret) == nil)

        // An RS256 signature under an ES256 header (both keys in force): checked as ES256, refused.
        let both = try Self.verifier(pem: [keys.rsa.publicKey, keys.ec.publicKey], in: keys)
        let relabelled = Self.replacing(rsaToken, header: #"{"alg":"ES256","typ":"JWT"}"#)
        #expect(Self.refusal(relabelled, both)?.hasPrefix("the token's signature is not valid") == true)
        #expect(Self.refusal(Self.replacing(ecToken, header: #"{"alg":"RS256","typ":"JWT"}"#), both) == "the token's signature is not valid")

        let none = Self.replacing(ecToken, header: #"{"alg":"none"}"#).split(separator: ".").prefix(2).joined(separator: ".") + "."
        #expect(Self.refusal(none, both) == "the token's alg is none; only RS256 and ES256 are accepted")
        #expect(Self.refusal(none, withSecret) == "the token's alg is none; only HS256 and ES256 are accepted")
    }

    @Test func anES256SignatureIsSixtyFourBytes() throws {
        let keys = try TokenKeyMaterial()
        let verifier = try Self.verifier(pem: [keys.ec.publicKey], in: keys)
        let token = try TokenSigningKey(pemFile: keys.ec.privateKey).mint(Self.claims)
        let raw = try Self.signatureBytes(token)
        // The same signature in OpenSSL's DER form, which JWS does not use.
        let der = Self.derSignature(raw)
        #expect(
            Self.refusal(Self.replacing(token, signature: der), verifier)
                == "the token's signature is not valid (an ES256 signature is r||s, 64 bytes, not \(der.count))")
        #expect(Self.refusal(Self.replacing(token, signature: Array(raw.prefix(63))), verifier)?.hasSuffix("not 63)") == true)
        #expect(Self.refusal(Self.replacing(token, signature: raw + [0]), verifier)?.hasSuffix("not 65)") == true)
        #expect(Self.refusal(Self.replacing(token, signature: [UInt8](repeating: 0, count: 64)), verifier) == "the token's signature is not valid")
        #expect(Self.refusal(token, verifier) == nil)
    }

    @Test func rsaKeysUnder2048BitsAreRefused() throws {
        let keys = try TokenKeyMaterial()
        #expect(throws: TokenFileError.self) { try TokenSigningKey(pemFile: keys.shortRSA.privateKey) }
        #expect(
            Self.loadRefusal(publicKeyFile: keys.shortRSA.publicKey)
                == "\(keys.shortRSA.publicKey): public key 1: an RSA key of 1024 bits is too short: at least 2048")
        let jwks = try keys.directory.write("short.json", keys.jwks([try keys.rsaJWK(keys.shortRSA, kid: "old")]))
        #expect(Self.loadRefusal(jwksFile: jwks) == "\(jwks): keys[0]: an RSA key of 1024 bits is too short: at least 2048")
    }

    @Test func aKidPicksTheKeyOfAJWKSet() throws {
        let keys = try TokenKeyMaterial()
        let set = keys.jwks([
            try keys.ecJWK(keys.ec, kid: "2026-11", extra: #","alg":"ES256","use":"sig""#), try keys.ecJWK(keys.otherEC, kid: "2026-12"),
            try keys.rsaJWK(keys.rsa, kid: "rsa-1", extra: #","alg":"RS256""#),
            #"{"kty":"oct","k":"c2VjcmV0","use":"enc","kid":"enc-1"}"#,
        ])
        let verifier = try Self.verifier(jwks: set, in: keys)
        let current = try TokenSigningKey(pemFile: keys.ec.privateKey)
        let next = try TokenSigningKey(pemFile: keys.otherEC.privateKey)
        let rsa = try TokenSigningKey(pemFile: keys.rsa.privateKey)
        #expect(Self.header(next.mint(Self.claims, keyID: "2026-12")) == #"{"alg":"ES256","kid":"2026-12","typ":"JWT"}"#)
        #expect(Self.refusal(current.mint(Self.claims, keyID: "2026-11"), verifier) == nil)
        #expect(Self.refusal(next.mint(Self.claims, keyID: "2026-12"), verifier) == nil)
        #expect(Self.refusal(rsa.mint(Self.claims, keyID: "rsa-1"), verifier) == nil)
        // The kid names the key: another key's signature under it is refused.
        #expect(Self.refusal(next.mint(Self.claims, keyID: "2026-11"), verifier) == "the token's signature is not valid")
        #expect(Self.refusal(next.mint(Self.claims, keyID: "2027-01"), verifier) == #"the token's kid "2027-01" names no ES256 key in force"#)
        #expect(Self.refusal(rsa.mint(Self.claims, keyID: "2026-11"), verifier) == #"the token's kid "2026-11" names no RS256 key in force"#)
        // Without a kid, every key of the algorithm is tried.
        #expect(Self.refusal(next.mint(Self.claims), verifier) == nil)
        #expect(Self.refusal(Self.replacing(current.mint(Self.claims), header: #"{"alg":"ES256","kid":7}"#), verifier) != nil)
        // The encryption key (use enc) was skipped, not taken as an HMAC secret.
        #expect(
            Self.refusal(SignedTokenTests.forge(header: #"{"alg":"HS256","kid":"enc-1"}"#, payload: "{}", secret: "secret"), verifier)
                == "the token's alg is HS256; only RS256 and ES256 are accepted")
    }

    @Test(arguments: [
        ("not json", "is not JSON: "),
        (#"{"kes":[]}"#, #"is not a JWK Set: an object with a "keys" array is expected"#),
        (#"{"keys":[]}"#, #"holds no key to check signatures with"#),
        (#"{"keys":[{"kty":"oct","k":"c2VjcmV0"}]}"#, #"keys[0]: kty "oct" is not supported: "RSA" or "EC""#),
        (#"{"keys":[{"kty":"OKP","crv":"Ed25519","x":"AAAA"}]}"#, #"keys[0]: kty "OKP" is not supported: "RSA" or "EC""#),
        (#"{"keys":[{"crv":"P-256"}]}"#, #"keys[0]: kty "missing" is not supported"#),
        (#"{"keys":[{"kty":"EC","crv":"P-384","x":"AAAA","y":"AAAA"}]}"#, #"keys[0]: crv "P-384" is not supported: "P-256" only"#),
        (#"{"keys":[{"kty":"EC","crv":"P-256","y":"AAAA"}]}"#, #"keys[0]: "x" is missing or is not base64url"#),
        (#"{"keys":[{"kty":"RSA","e":"AQAB"}]}"#, #"keys[0]: "n" is missing or is not base64url"#),
        (#"{"keys":{}}"#, "is not a JWK Set"),
        (#"{"keys":[{"kty":"EC","crv":"P-256","x":"AAAA","y":"AAAA","use":"enc"}]}"#, "holds no key to check signatures with"),
        (#"{"keys":[1]}"#, "keys[0]: is not a JSON object"),
    ])
    func aBrokenJWKSetIsRefusedWithOneLine(_ text: String, _ expected: String) throws {
        let keys = try TokenKeyMaterial()
        let path = try keys.directory.write("jwks.json", text)
        let refusal = try #require(Self.loadRefusal(jwksFile: path))
        #expect(refusal.hasPrefix("\(path): \(expected)"), "\(refusal)")
        #expect(!refusal.contains("\n"))
    }

    @Test func theKeysOfAJWKSetAreChecked() throws {
        let keys = try TokenKeyMaterial()
        let ec = try keys.ecJWK(keys.ec, kid: "a")
        let x = try #require(ec.range(of: #""x":""#))
        // x one byte short (leading zeros must be kept), a point off the curve, an alg of another key.
        let shortX = ec.replacingCharacters(in: x.upperBound..<ec.index(x.upperBound, offsetBy: 3), with: "")
        let offCurve = ec.replacingCharacters(in: x.upperBound..<ec.index(x.upperBound, offsetBy: 4), with: "AAAA")
        for (jwk, expected) in [
            (shortX, #"keys[0]: "x" is 30 bytes, not 32 (leading zeros are kept)"#),
            (offCurve, "keys[0]: its parameters do not make a valid public key"),
            (try keys.ecJWK(keys.ec, kid: "a", extra: #","alg":"RS256""#), #"keys[0]: alg "RS256" does not fit the key: "ES256" or none"#),
            (try keys.rsaJWK(keys.rsa, kid: "a", extra: #","alg":"HS256""#), #"keys[0]: alg "HS256" does not fit the key: "RS256" or none"#),
            (try keys.ecJWK(keys.ec, kid: nil, extra: #","kid":["a"]"#), #"keys[0]: "kid" must be a string"#),
            // An exponent of 1 makes every padded hash its own signature: anyone could sign.
            (
                try keys.rsaJWK(keys.rsa, kid: "a").replacingOccurrences(of: #""e":"AQAB""#, with: #""e":"AQ""#),
                "keys[0]: the key fails OpenSSL's public key check (an RSA exponent must be odd and at least 65537)"
            ),
        ] {
            let path = try keys.directory.write("jwks.json", keys.jwks([jwk]))
            #expect(Self.loadRefusal(jwksFile: path) == "\(path): \(expected)")
        }
        let twice = try keys.directory.write("twice.json", keys.jwks([ec, try keys.ecJWK(keys.otherEC, kid: "a")]))
        #expect(Self.loadRefusal(jwksFile: twice) == #"\#(twice): keys[1]: kid "a" is given to two keys"#)
        #expect(Self.loadRefusal(jwksFile: "/nonexistent/jwks.json") == "/nonexistent/jwks.json: cannot be read")
        #expect(Self.loadRefusal(jwksFile: try keys.directory.write("ok.json", keys.jwks([ec]))) == nil)
    }

    @Test func aPublicKeyFileHoldsPublicKeysOnly() throws {
        let keys = try TokenKeyMaterial()
        let publicKey = try keys.pem(keys.ec)
        for (text, expected) in [
            ("", "holds no -----BEGIN PUBLIC KEY----- block"),
            (try String(contentsOfFile: keys.ec.privateKey, encoding: .utf8), "holds a PRIVATE KEY block: give the server the public key only"),
            (publicKey + "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n", "holds a CERTIFICATE block; only PUBLIC KEY blocks are read"),
            (publicKey.replacingOccurrences(of: "\n-----END", with: "AAAA\n-----END"), "public key 1 is not a valid SubjectPublicKeyInfo"),
            (publicKey + publicKey.replacingOccurrences(of: "-----END PUBLIC KEY-----", with: ""), "public key 2 is not a valid SubjectPublicKeyInfo"),
        ] {
            let path = try keys.directory.write("keys.pem", text)
            let refusal = try #require(Self.loadRefusal(publicKeyFile: path), "\(text)")
            #expect(refusal.hasPrefix("\(path): \(expected)"), "\(refusal)")
        }
    }

    @Test func secretsOrKeysAreNeededAndHS256StaysAsItWas() throws {
        #expect(throws: TokenFileError.self) { try SignedTokens(secrets: [], keys: []) }
        let keys = try TokenKeyMaterial()
        let publicKeys = try TokenVerificationKey.keys(publicKeyFile: keys.ec.publicKey, jwksFile: nil)
        #expect(publicKeys.map(\.algorithm) == [.es256] && publicKeys[0].keyID == nil)
        #expect(throws: TokenFileError.self) { try SignedTokens(secrets: ["short"], keys: publicKeys) }
        let secret = String(repeating: "k", count: 32)
        let both = try SignedTokens(secrets: [secret], keys: publicKeys)
        #expect(Self.refusal(try SignedTokens(secrets: [secret]).mint(Self.claims), both) == nil)
    }

    /// Why the key files are not taken; nil when they are.
    static func loadRefusal(publicKeyFile: String? = nil, jwksFile: String? = nil) -> String? {
        do {
            _ = try TokenVerificationKey.keys(publicKeyFile: publicKeyFile, jwksFile: jwksFile)
            return nil
        } catch {
            return error.description
        }
    }

    static func hmac(key: [UInt8], _ message: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        _ = HMAC(EVP_sha256(), key, Int32(key.count), message, message.count, &out, &length)
        return Array(out.prefix(Int(length)))
    }

    /// DER ECDSA-Sig-Value of r||s, written here by hand (r and s each under 128 bytes).
    static func derSignature(_ raw: [UInt8]) -> [UInt8] {
        func integer(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
            var magnitude = Array(bytes.drop { $0 == 0 })
            if magnitude.first.map({ $0 >= 0x80 }) ?? true { magnitude.insert(0, at: 0) }
            return [0x02, UInt8(magnitude.count)] + magnitude
        }
        let body = integer(raw[0..<32]) + integer(raw[32..<64])
        return [0x30, UInt8(body.count)] + body
    }
}

extension Result {
    fileprivate var isFailure: Bool {
        if case .failure = self { true } else { false }
    }
}
