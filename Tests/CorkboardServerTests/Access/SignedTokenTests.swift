import COpenSSL
import CorkboardHub
import CorkboardModel
import CorkboardServer
import Foundation
import Testing

/// HS256 tokens as an app's backend mints them (docs/security.md#signed-tokens): only a
/// token signed with a secret in force, with `alg` HS256 and within its lifetime, proves anything.
@Suite struct SignedTokenTests {
    static let secret = String(repeating: "k", count: 32)
    static let signer = try! SignedTokens(secrets: [secret])
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    static func claims(expiresIn seconds: Double = 600, boards: BoardScope = ["sprint", "team-*"]) -> SignedTokenClaims {
        SignedTokenClaims(subject: "u-42", name: "Ada Lovelace", boards: boards, role: .editor, expires: now.addingTimeInterval(seconds))
    }

    static func refusal(_ token: String, at date: Date = now) -> String? {
        guard case .failure(let refusal) = signer.verify(token, now: date) else { return nil }
        return refusal.description
    }

    /// A token with this header and payload JSON, signed with `secret`.
    static func forge(header: String, payload: String, secret: String = secret) -> String {
        let input = base64url(Data(header.utf8)) + "." + base64url(Data(payload.utf8))
        return input + "." + base64url(hmacSHA256(key: secret, input))
    }

    /// Straight from OpenSSL's one-shot HMAC, beside the server's own code.
    static func hmacSHA256(key: String, _ message: String) -> Data {
        var out = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        let (keyBytes, messageBytes) = (Array(key.utf8), Array(message.utf8))
        _ = HMAC(EVP_sha256(), keyBytes, Int32(keyBytes.count), messageBytes, messageBytes.count, &out, &length)
        return Data(out.prefix(Int(length)))
    }

    static func base64url(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    @Test func aMintedTokenIsVerifiedWithItsClaims() throws {
        let token = Self.signer.mint(Self.claims())
        let claims = try Self.signer.verify(token, now: Self.now).get()
        #expect(claims.subject == "u-42" && claims.name == "Ada Lovelace" && claims.role == .editor)
        #expect(claims.holder.role(on: "sprint") == .editor)
        #expect(claims.holder.role(on: "team-blue") == .editor)
        #expect(claims.holder.role(on: "other") == nil)
        #expect(!claims.holder.mayReadMetrics)
    }

    @Test func theLifetimeHoldsWithinTheLeeway() {
        let token = Self.signer.mint(Self.claims(expiresIn: 0))
        #expect(Self.refusal(token, at: Self.now.addingTimeInterval(SignedTokens.leeway - 1)) == nil)
        #expect(Self.refusal(token, at: Self.now.addingTimeInterval(SignedTokens.leeway + 1))?.hasPrefix("the token expired at ") == true)
        // A joined member's token is judged again on reload without its lifetime.
        #expect(throws: Never.self) { try Self.signer.verify(token, now: Self.now.addingTimeInterval(86_400), checkingLifetime: false).get() }
        var early = Self.claims()
        early.notBefore = Self.now.addingTimeInterval(120)
        #expect(Self.refusal(Self.signer.mint(early))?.hasPrefix("the token is not valid before ") == true)
        early.notBefore = Self.now.addingTimeInterval(10)
        #expect(Self.refusal(Self.signer.mint(early)) == nil)
    }

    @Test func anotherSecretOrAnyChangeBreaksTheSignature() throws {
        let token = Self.signer.mint(Self.claims())
        let other = try SignedTokens(secrets: [String(repeating: "x", count: 32)])
        #expect(Self.refusal(other.mint(Self.claims())) == "the token's signature is not valid")
        // The payload swapped for one granting more, the signature kept.
        let parts = token.split(separator: ".")
        let owner = Self.base64url(Data(#"{"sub":"u-42","name":"Ada","boards":"*","role":"owner","exp":1900000000}"#.utf8))
        #expect(Self.refusal("\(parts[0]).\(owner).\(parts[2])") == "the token's signature is not valid")
        let flipped = parts[2].first == "A" ? "B" : "A"
        #expect(Self.refusal("\(parts[0]).\(parts[1]).\(flipped)\(parts[2].dropFirst())") == "the token's signature is not valid")
        // 32 bytes leave 2 unused bits in the last character: another spelling of the same
        // signature is refused too, so a token has one spelling only.
        let last = try #require(parts[2].last)
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        let sibling = alphabet[(alphabet.firstIndex(of: last)! / 4) * 4 + (alphabet.firstIndex(of: last)! % 4 + 1) % 4]
        #expect(Self.refusal("\(parts[0]).\(parts[1]).\(parts[2].dropLast())\(sibling)") == "the token is malformed (not three base64url parts)")
        #expect(Self.refusal("\(parts[0]).\(parts[1]).") != nil)
    }

    @Test func onlyHS256IsAccepted() {
        let payload = #"{"sub":"u","name":"N","boards":"*","role":"owner","exp":1900000000}"#
        let none = Self.base64url(Data(#"{"alg":"none","typ":"JWT"}"#.utf8)) + "." + Self.base64url(Data(payload.utf8)) + "."
        #expect(Self.refusal(none) == "the token's alg is none; only HS256 is accepted")
        #expect(Self.refusal(Self.forge(header: #"{"alg":"HS512"}"#, payload: payload)) == "the token's alg is HS512; only HS256 is accepted")
        #expect(Self.refusal(Self.forge(header: #"{"typ":"JWT"}"#, payload: payload)) == "the token's alg is missing; only HS256 is accepted")
        #expect(Self.refusal(Self.forge(header: #"{"alg":"HS256","crit":["b64"]}"#, payload: payload)) != nil)
        #expect(Self.refusal(Self.forge(header: #"{"alg":"HS256"}"#, payload: payload)) == nil)
    }

    @Test(arguments: [
        ("", "the token is malformed (not three base64url parts)"),
        ("a.b", "the token is malformed (not three base64url parts)"),
        ("a.b.c.d", "the token is malformed (not three base64url parts)"),
        ("e30=.e30.e30", "the token is malformed (not three base64url parts)"),
        ("bm90IGpzb24.e30.AAAA", "the token is malformed (its header is not a JSON object)"),
    ])
    func malformedTokensSayWhy(_ token: String, _ reason: String) {
        #expect(Self.refusal(token) == reason)
    }

    @Test(arguments: [
        (#"{"name":"N","boards":"*","role":"owner","exp":1900000000}"#, #"the token is malformed ("sub" (the user id) is missing)"#),
        (#"{"sub":"u","boards":"*","role":"owner","exp":1900000000}"#, #"the token is malformed ("name" is missing)"#),
        (#"{"sub":"u","name":"N","role":"owner","exp":1900000000}"#, #"the token is malformed ("boards" is missing)"#),
        (#"{"sub":"u","name":"N","boards":"*","role":"admin","exp":1900000000}"#, #"the token is malformed ("role" must be viewer, editor or owner)"#),
        (#"{"sub":"u","name":"N","boards":"*","role":"owner"}"#, #"the token is malformed ("exp" (seconds since 1970) is missing)"#),
        (
            #"{"sub":"u","name":"N","boards":"all","role":"owner","exp":1900000000}"#,
            #"the token is malformed ("boards" must be "*" (every board) or a list of board ids and patterns)"#
        ),
        (#"[1]"#, "the token is malformed (the payload is not a JSON object)"),
        (
            #"{"sub":"u","name":"N","boards":["a"],"role":"viewer","exp":1900000000,"role":"owner"}"#,
            #"the token is malformed (the payload is not JSON: the key "role" appears twice in one object)"#
        ),
        (
            #"{"sub":"u","name":"N","boards":["a","*"],"role":"owner","exp":1900000000}"#,
            #"the token is malformed ("boards": a lone "*" in a list is refused: write "boards": "*" for every board)"#
        ),
    ])
    func claimsAreRequired(_ payload: String, _ reason: String) {
        #expect(Self.refusal(Self.forge(header: #"{"alg":"HS256","typ":"JWT"}"#, payload: payload)) == reason)
    }

    @Test func secretsAreLongAndMayBeRotated() throws {
        #expect(throws: TokenFileError.self) { try SignedTokens(secrets: ["short"]) }
        #expect(throws: TokenFileError.self) { try SignedTokens(secrets: []) }
        let old = String(repeating: "o", count: 40)
        let rotating = try SignedTokens(secrets: [String(repeating: "n", count: 40), old])
        let oldToken = try SignedTokens(secrets: [old]).mint(Self.claims())
        #expect(throws: Never.self) { try rotating.verify(oldToken, now: Self.now).get() }
    }

    @Test func theFileIsTriedFirstThenTheSignature() throws {
        let file = try TokenFile(grants: [TokenFile.Grant(token: "wall", role: .viewer, boards: ["sprint"])])
        let access = ServerAccess(file: file, signed: Self.signer)
        #expect(access.role(token: "wall", board: "sprint") == .viewer)
        #expect(access.judge(token: "a.b.c", checkingLifetime: true) == .refused("the token is malformed (not three base64url parts)"))
        #expect(access.judge(token: "nope", checkingLifetime: true) == .refused("the token is not valid"))
        #expect(access.judge(token: nil, checkingLifetime: true) == .missing)
        let token = Self.signer.mint(Self.claims(expiresIn: 3600 * 24 * 365 * 10))
        #expect(access.judge(token: token, checkingLifetime: true).holder?.name == "Ada Lovelace")
    }
}
