import ArgumentParser
import CorkboardHub
import CorkboardModel
import CorkboardServeCommand
import CorkboardServer
import Foundation

/// `corkboard token mint`: a signed per-user token, as an app's backend mints them
/// (docs/security.md#signed-tokens), for scripts, tests and trying the server out.
struct TokenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token", abstract: "Signed per-user tokens.", subcommands: [MintCommand.self])
}

struct MintCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mint",
        abstract:
            "Print a signed token: sub, name, boards, role, exp. HS256 with a secret for --token-secret servers; RS256 or ES256 with --private-key for --token-public-key-file and --token-jwks-file servers."
    )

    @Option(help: "The server's token secret, at least 32 bytes (env: CORKBOARD_TOKEN_SECRET).")
    var secret: String?

    @Option(help: "A file of secrets, one a line; the first one signs (env: CORKBOARD_TOKEN_SECRET_FILE).")
    var secretFile: String?

    @Option(
        help:
            "PEM private key (RSA of 2048 bits or more: RS256; EC P-256: ES256) whose public half the server holds; instead of a secret."
    )
    var privateKey: String?

    @Option(help: "With --private-key: the kid of its public key in the server's JWK Set, put in the token's header.")
    var kid: String?

    @Option(help: "The user id (claim sub), at most 256 bytes.")
    var sub: String

    @Option(help: "The name shown to the others (claim name), at most 256 bytes.")
    var name: String

    @Option(help: "viewer, editor or owner.")
    var role: String

    @Option(help: "Comma-separated board ids and prefix-* patterns, or * for every board.")
    var boards: String

    @Option(help: "Seconds the token stays valid (default 3600).")
    var ttl: Int = 3600

    func run() throws {
        guard let role = Role(rawValue: role) else { throw ValidationError("--role must be viewer, editor or owner") }
        guard ttl > 0 else { throw ValidationError("--ttl must be a positive number of seconds") }
        // The server refuses a token naming its holder with more (docs/protocol.md#3-joining).
        for (option, value) in [("--sub", sub), ("--name", name)] {
            if let problem = Limits.nameProblem(value) { throw ValidationError("\(option) \(problem); the server would refuse the token") }
        }
        let scope: BoardScope =
            boards == "*" ? .all : .listed(Set(boards.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }))
        // What the server would refuse is never minted (a lone "*", an id not in NFC).
        if let problem = scope.problem { throw ValidationError("--boards: \(problem)") }
        // iat: a revocation of this user refuses the tokens issued before it, and no later one.
        let now = Date()
        let claims = SignedTokenClaims(
            subject: sub, name: name, boards: scope, role: role, expires: now.addingTimeInterval(Double(ttl)), issuedAt: now)
        if let privateKey {
            guard secret == nil && secretFile == nil else { throw ValidationError("give either --private-key or a secret, not both") }
            let signer: TokenSigningKey
            do { signer = try TokenSigningKey(pemFile: privateKey) } catch { fail(error) }
            print(signer.mint(claims, keyID: kid))
            return
        }
        guard kid == nil else { throw ValidationError("--kid names a public key: it goes with --private-key") }
        let environment = ProcessInfo.processInfo.environment
        var secrets: [String] = []
        if let secret = secret ?? environment["CORKBOARD_TOKEN_SECRET"] {
            secrets = [secret]
        } else if let path = secretFile ?? environment["CORKBOARD_TOKEN_SECRET_FILE"] {
            do { secrets = try SignedTokens.secrets(inFile: path) } catch { fail(error) }
        } else {
            throw ValidationError("give the secret with --secret or --secret-file, or a key with --private-key")
        }
        let signer: SignedTokens
        do { signer = try SignedTokens(secrets: secrets) } catch { fail(error) }
        print(signer.mint(claims))
    }
}
