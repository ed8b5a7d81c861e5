import CorkboardHub
import CorkboardModel
import CorkboardServer
import CorkboardWire
import Foundation
import TestSupport
import Testing
import WebSocket

/// Signed per-user tokens against a real `corkboard serve --token-secret-file` beside a token
/// file: 401 and `unauthorized` + close 1008 for no token or one that proves nothing, 403 and
/// `forbidden` for a valid token without the board, the name the others see from the token,
/// and tokens from `corkboard token mint` and from the Python snippet of docs/security.md.
@Suite(.threadsOfTheirOwn) struct SignedTokenServeTests {
    static let secret = "a-test-secret-of-more-than-thirty-two-bytes"
    static let signer = try! SignedTokens(secrets: [secret])
    static let fileTokens = #"{"tokens":[{"token":"owner-token","role":"owner","boards":"*"}]}"#

    static func token(_ name: String, role: Role = .editor, boards: BoardScope = ["board"], expiresIn seconds: Double = 600) -> String {
        signer.mint(
            SignedTokenClaims(
                subject: "id-\(name)", name: name, boards: boards, role: role, expires: Date().addingTimeInterval(seconds)))
    }

    static func server() throws -> ChildServer {
        let folder = try TemporaryDirectory("corkboard-secret")
        let path = try folder.write("secret", "\n  \(secret)  \n")
        return try ChildServer(["--token-secret-file", path], tokens: fileTokens, ownerToken: "owner-token")
    }

    /// `hello` named `name` with `token` on `board`: the `error` the server answers and its close code and reason.
    static func refusedHello(
        port: UInt16, board: String = "board", name: String = "Someone", token: String? = nil
    ) throws -> (ErrorMessage?, WebSocketClosePayload?) {
        try HelloProbe.refusedHello(port: port, board: board, name: name, token: token)
    }

    /// What the server answers `hello` (`HelloProbe.answerToHello`).
    static func answerToHello(
        port: UInt16, board: String = "board", name: String = "Someone", token: String?, extraHeaders: String = ""
    ) throws -> (error: ErrorMessage?, welcome: Welcome?, close: WebSocketClosePayload?) {
        try HelloProbe.answerToHello(port: port, board: board, name: name, token: token, extraHeaders: extraHeaders)
    }

    @Test func validTokensJoinUnderTheirOwnNameAndOthersAreRefusedWithAReason() async throws {
        try await offPool {
            let server = try Self.server()
            let port = server.port
            let ada = try BoardTestClient(port: port, board: "board", name: "claims to be Bob", token: Self.token("Ada"))
            #expect(ada.welcome.role == .editor)
            let grace = try BoardTestClient(port: port, board: "board", name: "Mallory", token: Self.token("Grace", role: .viewer))
            #expect(grace.welcome.role == .viewer)
            // The others see the token's name, not the one in hello.
            #expect(grace.welcome.peers.map(\.name) == ["Ada"])
            #expect(try ada.sync().contains { if case .peerJoined(_, let name, _) = $0 { name == "Grace" } else { false } })
            try Unharmed.commitAMove(ada)

            let expired = Self.token("Old", expiresIn: -SignedTokens.leeway - 5)
            let forged = try SignedTokens(secrets: [String(repeating: "z", count: 32)]).mint(
                SignedTokenClaims(subject: "x", name: "X", boards: .all, role: .owner, expires: Date().addingTimeInterval(600)))
            let none = "eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4IiwibmFtZSI6IlgiLCJib2FyZHMiOiIqIiwicm9sZSI6Im93bmVyIiwiZXhwIjo0MTAyNDQ0ODAwfQ."
            for (token, reason) in [
                (nil, "a token is needed"), (expired, "the token expired at "),
                (forged, "the token's signature is not valid"), (none, "the token's alg is none; only HS256 is accepted"),
                ("x.y.z", "the token is malformed"), ("wrong", "the token is not valid"),
            ] as [(String?, String)] {
                let (error, close) = try Self.refusedHello(port: port, token: token)
                #expect(error?.code == .unauthorized && error?.message.hasPrefix(reason) == true, "\(String(describing: error))")
                #expect(close?.code == .policyViolation && close?.reason.hasPrefix(reason) == true, "\(String(describing: close))")
                let http = try Unharmed.get(port, "/api/boards/board", token: token)
                #expect(http.status == 401 && http.text.contains(reason.replacingOccurrences(of: "\"", with: "\\\"").prefix(20)), "\(http.text)")
                #expect(http.header("WWW-Authenticate")?.hasPrefix("Bearer") == true)
                #expect(try Unharmed.get(port, "/api/boards", token: token).status == 401)
                #expect(try Unharmed.get(port, "/metrics", token: token).status == 401)
            }
            // A valid token on a board it does not cover: forbidden, 403.
            let elsewhere = Self.token("Eve", boards: ["other", "team-*"])
            let (error, close) = try Self.refusedHello(port: port, token: elsewhere)
            #expect(error?.code == .forbidden && close?.code == .policyViolation)
            #expect(try Unharmed.get(port, "/api/boards/board", token: elsewhere).status == 403)
            #expect(try Unharmed.get(port, "/metrics", token: elsewhere).status == 403)
            let list = try Unharmed.get(port, "/api/boards", token: elsewhere)
            #expect(list.status == 200 && list.text == #"{"boards":[]}"#)
            // Patterns: a team-* token opens team boards.
            try Unharmed.createBoard(port: port, id: "team-blue", token: "owner-token")
            let member = try BoardTestClient(port: port, board: "team-blue", name: "-", token: elsewhere)
            #expect(member.welcome.role == .editor)
            // The token file still works beside the secret; an owner of every board reads /metrics.
            #expect(try Unharmed.get(port, "/metrics", token: "owner-token").status == 200)
            #expect(try Unharmed.get(port, "/metrics", token: Self.token("Root", role: .owner, boards: .all)).status == 200)
            try Unharmed.commitAMove(ada)
            #expect(ada.log.allSatisfy { $0.typeName != "error" })
        }
    }

    @Test func aRotatedSecretEndsTheSessionsItSignedAndABrokenFileChangesNothing() async throws {
        try await offPool {
            let folder = try TemporaryDirectory("corkboard-rotate")
            let newSecret = String(repeating: "n", count: 40)
            let path = try folder.write("secret", Self.secret)
            let server = try ChildServer(["--token-secret-file", path], tokens: Self.fileTokens, ownerToken: "owner-token")
            let ada = try BoardTestClient(port: server.port, board: "board", name: "-", token: Self.token("Ada"))

            // Too short: refused, the old secret stays in force and the failure is counted.
            try "short".write(toFile: path, atomically: true, encoding: .utf8)
            server.process.signal(SIGHUP)
            #expect(eventually { server.process.standardError.contains("tokens not reloaded") })
            #expect(try Unharmed.get(server.port, "/metrics", token: "owner-token").text.contains("corkboard_token_reload_failures_total 1"))
            try Unharmed.commitAMove(ada)

            // Both secrets while rotating: Ada's session carries on, a new token works.
            try "\(newSecret)\n\(Self.secret)\n".write(toFile: path, atomically: true, encoding: .utf8)
            server.process.signal(SIGHUP)
            let newSigner = try SignedTokens(secrets: [newSecret])
            let claims = SignedTokenClaims(subject: "b", name: "Bob", boards: ["board"], role: .editor, expires: Date().addingTimeInterval(600))
            #expect(eventually { (try? Unharmed.get(server.port, "/api/boards/board", token: newSigner.mint(claims)).status) == 200 })
            try Unharmed.commitAMove(ada)

            // The old secret removed: the sessions it signed end with forbidden and 1008.
            try newSecret.write(toFile: path, atomically: true, encoding: .utf8)
            server.process.signal(SIGHUP)
            #expect(try ada.expectClose() == .policyViolation)
            #expect(ada.log.last?.errorMessage?.code == .forbidden)
        }
    }

    @Test func mistakesInTheFilesStopTheServerWithOneLine() throws {
        let folder = try TemporaryDirectory("corkboard-strict")
        try folder.write("web/index.html", "<!doctype html>")
        let misspelt = try folder.write("tokens.json", #"{"tokens":[{"token":"x","role":"owner","board":["a"]}]}"#)
        let short = try folder.write("secret", "short")
        for (arguments, line) in [
            (["--tokens", misspelt], #"corkboard: error: tokens: \#(misspelt): tokens[0]: unknown key "board""#),
            (["--token-secret-file", short], "corkboard: error: tokens: \(short): a token secret must be at least 32 bytes long"),
            (["--token-secret", "short"], "corkboard: error: tokens: a token secret must be at least 32 bytes long"),
        ] {
            let process = try ServerProcess(
                ["serve", "--port", "0", "--no-demo", "--store", "memory", "--web-root", folder.path + "/web"] + arguments)
            #expect(process.waitForExit() == 1)
            let lines = process.standardError.split(separator: "\n")
            #expect(lines.count == 1 && lines[0].hasPrefix(line), "\(process.standardError)")
        }
    }

    @Test func aMintedTokenFromTheCommandLineIsAccepted() async throws {
        try await offPool {
            let server = try Self.server()
            let mint = try ServerProcess(
                ["token", "mint", "--secret", Self.secret, "--sub", "u-7", "--name", "Script", "--role", "viewer", "--boards", "board,team-*", "--ttl", "60"])
            #expect(mint.waitForExit() == 0, "\(mint.standardError)")
            let token = mint.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
            // It says when it was issued: a revocation of its user refuses it, and no token minted later.
            let claims = try Self.signer.verify(token).get()
            #expect(abs(try #require(claims.issuedAt).timeIntervalSinceNow) < 60)
            let client = try BoardTestClient(port: server.port, board: "board", name: "-", token: token)
            #expect(client.welcome.role == .viewer)
            #expect(try Unharmed.get(server.port, "/api/boards/board", token: token).status == 200)
        }
    }

    /// The snippets of docs/security.md, as a backend would paste them, mint tokens the server takes.
    @Test(arguments: [
        ("python", "/usr/bin/python3", "\nimport sys\nprint(corkboard_token(sys.argv[1], 'u-9', 'Pythonista', ['board'], 'editor'))\n"),
        ("js", "/usr/bin/node", "\nconsole.log(corkboardToken(process.argv[1], 'u-9', 'Nodist', ['board', 'team-*'], 'editor'));\n"),
    ])
    func theSnippetsOfTheDocsMintAcceptedTokens(_ language: String, _ interpreter: String, _ call: String) async throws {
        try await offPool {
            let server = try Self.server()
            let doc = try String(contentsOfFile: PythonTools.packageRoot + "/docs/security.md", encoding: .utf8)
            let start = try #require(doc.range(of: "```\(language)\n"))
            let end = try #require(doc.range(of: "```", range: start.upperBound..<doc.endIndex))
            let script = String(doc[start.upperBound..<end.lowerBound]) + call
            let flag = language == "python" ? "-c" : "-e"
            let run = try ServerProcess([flag, script, Self.secret], executable: interpreter)
            #expect(run.waitForExit() == 0, "\(run.standardError)")
            let token = run.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
            let watcher = try BoardTestClient(port: server.port, board: "board", name: "-", token: Self.token("Watcher"))
            let client = try BoardTestClient(port: server.port, board: "board", name: "-", token: token)
            #expect(client.welcome.role == .editor)
            let name = language == "python" ? "Pythonista" : "Nodist"
            #expect(try watcher.sync().contains { if case .peerJoined(_, let joined, _) = $0 { joined == name } else { false } })
        }
    }
}
