import CorkboardHub
import CorkboardModel
import CorkboardServer
import CorkboardWire
import Foundation
import TestSupport
import Testing

/// RS256 and ES256 tokens against a real `corkboard serve --token-jwks-file`: a `hello` with a
/// token the set's key signs joins, a tampered one is refused, a reload that swaps the key ends
/// the sessions of the old one, and `corkboard token mint --private-key` mints accepted tokens.
@Suite(.threadsOfTheirOwn) struct TokenKeyServeTests {
    static let fileTokens = SignedTokenServeTests.fileTokens

    static func claims(_ name: String) -> SignedTokenClaims {
        SignedTokenClaims(subject: "id-\(name)", name: name, boards: ["board"], role: .editor, expires: Date().addingTimeInterval(600))
    }

    @Test func anES256TokenJoinsATamperedOneIsRefusedAndAReloadSwapsTheKey() async throws {
        try await offPool {
            let keys = try TokenKeyMaterial()
            let jwks = try keys.directory.write("jwks.json", keys.jwks([try keys.ecJWK(keys.ec, kid: "k1")]))
            let server = try ChildServer(["--token-jwks-file", jwks], tokens: Self.fileTokens, ownerToken: "owner-token")
            let current = try TokenSigningKey(pemFile: keys.ec.privateKey)
            let next = try TokenSigningKey(pemFile: keys.otherEC.privateKey)

            let ada = try BoardTestClient(port: server.port, board: "board", name: "-", token: current.mint(Self.claims("Ada"), keyID: "k1"))
            #expect(ada.welcome.role == .editor)
            let token = current.mint(Self.claims("Eve"), keyID: "k1")
            let parts = token.split(separator: ".")
            let owner = TokenKeyMaterial.base64url(Data(#"{"boards":"*","exp":4102444800,"name":"Eve","role":"owner","sub":"id-Eve"}"#.utf8))
            for (refused, reason) in [
                ("\(parts[0]).\(owner).\(parts[2])", "the token's signature is not valid"),
                (next.mint(Self.claims("Eve"), keyID: "k2"), #"the token's kid "k2" names no ES256 key in force"#),
                (SignedTokenServeTests.token("Eve"), "the token's alg is HS256; only ES256 is accepted"),
            ] {
                let (error, close) = try SignedTokenServeTests.refusedHello(port: server.port, token: refused)
                #expect(error?.code == .unauthorized && error?.message == reason, "\(String(describing: error))")
                #expect(close?.code == .policyViolation)
                #expect(try Unharmed.get(server.port, "/api/boards/board", token: refused).status == 401)
            }

            // A broken set at reload: the previous key stays in force and the failure is counted.
            try #"{"keys":[{"kty":"oct","k":"c2VjcmV0"}]}"#.write(toFile: jwks, atomically: true, encoding: .utf8)
            server.process.signal(SIGHUP)
            #expect(eventually { server.process.standardError.contains("tokens not reloaded") })
            #expect(server.process.standardError.contains(#"keys[0]: kty "oct" is not supported"#))
            #expect(try Unharmed.get(server.port, "/metrics", token: "owner-token").text.contains("corkboard_token_reload_failures_total 1"))
            try Unharmed.commitAMove(ada)

            // Both keys while rotating: Ada carries on, the new key's tokens join.
            try keys.jwks([try keys.ecJWK(keys.ec, kid: "k1"), try keys.ecJWK(keys.otherEC, kid: "k2")])
                .write(toFile: jwks, atomically: true, encoding: .utf8)
            server.process.signal(SIGHUP)
            let bob = next.mint(Self.claims("Bob"), keyID: "k2")
            #expect(eventually { (try? Unharmed.get(server.port, "/api/boards/board", token: bob).status) == 200 })
            try Unharmed.commitAMove(ada)

            // The old key removed: the sessions it signed end with forbidden and 1008, its tokens are refused.
            try keys.jwks([try keys.ecJWK(keys.otherEC, kid: "k2")]).write(toFile: jwks, atomically: true, encoding: .utf8)
            server.process.signal(SIGHUP)
            #expect(try ada.expectClose() == .policyViolation)
            #expect(ada.log.last?.errorMessage?.code == .forbidden)
            let (error, _) = try SignedTokenServeTests.refusedHello(port: server.port, token: current.mint(Self.claims("Ada"), keyID: "k1"))
            #expect(error?.message == #"the token's kid "k1" names no ES256 key in force"#)
            let joined = try BoardTestClient(port: server.port, board: "board", name: "-", token: bob)
            #expect(joined.welcome.role == .editor)
        }
    }

    @Test func tokensMintedWithAPrivateKeyOnTheCommandLineAreAccepted() async throws {
        try await offPool {
            let keys = try TokenKeyMaterial()
            let pem = try keys.directory.write("keys.pem", try keys.pem(keys.rsa) + keys.pem(keys.ec))
            let server = try ChildServer(["--token-public-key-file", pem], tokens: Self.fileTokens, ownerToken: "owner-token")
            for (privateKey, kid) in [(keys.rsa.privateKey, nil), (keys.ec.privateKey, "any")] as [(String, String?)] {
                let mint = try ServerProcess(
                    ["token", "mint", "--private-key", privateKey, "--sub", "u-7", "--name", "Script", "--role", "viewer", "--boards", "board"]
                        + (kid.map { ["--kid", $0] } ?? []))
                #expect(mint.waitForExit() == 0, "\(mint.standardError)")
                let token = mint.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
                let client = try BoardTestClient(port: server.port, board: "board", name: "-", token: token)
                #expect(client.welcome.role == .viewer)
            }
            let short = try ServerProcess(
                ["token", "mint", "--private-key", keys.shortRSA.privateKey, "--sub", "u", "--name", "N", "--role", "viewer", "--boards", "*"])
            #expect(short.waitForExit() != 0)
            #expect(short.standardError.contains("an RSA key of 1024 bits is too short"), "\(short.standardError)")
        }
    }

    @Test func aBrokenKeyFileStopsTheServerWithOneLine() throws {
        let keys = try TokenKeyMaterial()
        try keys.directory.write("web/index.html", "<!doctype html>")
        let oct = try keys.directory.write("oct.json", #"{"keys":[{"kty":"oct","k":"c2VjcmV0","kid":"a"}]}"#)
        for (arguments, line) in [
            (["--token-jwks-file", oct], #"corkboard: error: tokens: \#(oct): keys[0]: kty "oct" is not supported: "RSA" or "EC""#),
            (["--token-public-key-file", keys.ec.privateKey], "corkboard: error: tokens: \(keys.ec.privateKey): holds a PRIVATE KEY block"),
            (
                ["--token-public-key-file", keys.shortRSA.publicKey],
                "corkboard: error: tokens: \(keys.shortRSA.publicKey): public key 1: an RSA key of 1024 bits"
            ),
        ] {
            let process = try ServerProcess(
                ["serve", "--port", "0", "--no-demo", "--store", "memory", "--web-root", keys.folder + "/web"] + arguments)
            #expect(process.waitForExit() == 1)
            let lines = process.standardError.split(separator: "\n")
            #expect(lines.count == 1 && lines[0].hasPrefix(line), "\(process.standardError)")
        }
    }
}
