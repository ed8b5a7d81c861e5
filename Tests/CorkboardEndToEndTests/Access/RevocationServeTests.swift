import CorkboardHub
import CorkboardModel
import CorkboardServer
import CorkboardWire
import Foundation
import TestSupport
import Testing
import WebSocket

/// Revoking signed tokens on a real `corkboard serve` (docs/security.md#revoking-tokens): over
/// the API a user's tokens issued until now, or one token by its `jti`, sending their members
/// away at once and refusing them afterwards, while the user's newer tokens and everyone else
/// carry on; taken back again; from the revocations file on SIGHUP; and across two nodes.
@Suite(.threadsOfTheirOwn) struct RevocationServeTests {
    static let owner = TokenLifecycleServeTests.owner
    static let issued = Date().addingTimeInterval(-60)

    static func token(_ name: String, issuedAt: Date = issued, id: String? = nil) -> String {
        TokenLifecycleServeTests.token(name, issuedAt: issuedAt, id: id)
    }

    static func post(_ port: UInt16, _ body: String, token: String? = owner) throws -> TestHTTPResponse {
        try Unharmed.post(port, "/api/revocations", body: body, token: token)
    }

    static func delete(_ port: UInt16, _ query: String) throws -> TestHTTPResponse {
        try BlockingClient.request(port: port, "DELETE /api/revocations?\(query) HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer \(owner)\r\n\r\n")
    }

    /// The member was sent away as revoked: `error` `forbidden` and close 1008.
    static func expectSentAway(_ client: BoardTestClient) throws {
        #expect(try client.expectClose() == .policyViolation)
        let error = try #require(client.log.last?.errorMessage)
        #expect(error.code == .forbidden && error.message == "the token was revoked", "\(error)")
    }

    /// A `hello` with `token` is refused as revoked.
    static func expectRefused(port: UInt16, token: String) throws {
        let (error, close) = try SignedTokenServeTests.refusedHello(port: port, token: token)
        #expect(error?.code == .unauthorized && error?.message == "the token was revoked", "\(String(describing: error))")
        #expect(close?.code == .policyViolation)
    }

    @Test func anOwnerRevokesAUserOrOneTokenAndTakesItBack() async throws {
        try await offPool {
            let server = try TokenLifecycleServeTests.server()
            let port = server.port
            let adaToken = Self.token("Ada")
            let ada = try BoardTestClient(port: port, board: "board", name: "-", token: adaToken)
            let bobToken = Self.token("Bob", id: "t-bob")
            let bob = try BoardTestClient(port: port, board: "board", name: "-", token: bobToken)
            let grace = try BoardTestClient(port: port, board: "board", name: "-", token: Self.token("Grace"))

            // Only an owner of every board revokes.
            #expect(try Self.post(port, #"{"sub":"id-Ada"}"#, token: adaToken).status == 403)
            #expect(try Self.post(port, #"{"sub":"id-Ada"}"#, token: nil).status == 401)
            for body in [#"{}"#, #"{"sub":"a","jti":"b"}"#, #"{"sub":""}"#, #"{"jti":"x","issuedBefore":1}"#, #"{"user":"a"}"#, "["] {
                #expect(try Self.post(port, body).status == 400, "\(body)")
            }

            let revoked = try Self.post(port, #"{"sub":"id-Ada"}"#)
            #expect(revoked.status == 201, "\(revoked.text)")
            let answer = try #require(try JSONDecoder().decode(JSONValue.self, from: Data(revoked.body)).objectValue)
            #expect(answer["sub"] == "id-Ada")
            guard case .number(let issuedBefore)? = answer["issuedBefore"] else { throw HubTestFailure("no issuedBefore in \(revoked.text)") }
            #expect(abs(issuedBefore - Date().timeIntervalSince1970) < 10)
            try Self.expectSentAway(ada)
            try Self.expectRefused(port: port, token: adaToken)
            #expect(try Unharmed.get(port, "/api/boards/board", token: adaToken).status == 401)
            // Her backend mints her a new token after the revocation: it works.
            let newer = Self.token("Ada", issuedAt: Date(timeIntervalSince1970: issuedBefore))
            let adaAgain = try BoardTestClient(port: port, board: "board", name: "-", token: newer)
            try Unharmed.commitAMove(adaAgain)

            // One token by its jti: Bob's, and nobody else's.
            #expect(try Self.post(port, #"{"jti":"t-bob"}"#).status == 201)
            try Self.expectSentAway(bob)
            try Self.expectRefused(port: port, token: bobToken)
            let bobsOtherToken = try BoardTestClient(port: port, board: "board", name: "-", token: Self.token("Bob", id: "t-bob-2"))
            try Unharmed.commitAMove(bobsOtherToken)
            try Unharmed.commitAMove(grace)

            let listed = try Unharmed.get(port, "/api/revocations", token: Self.owner)
            #expect(listed.status == 200 && listed.text.contains(#""sub":"id-Ada""#) && listed.text.contains(#""jti":"t-bob""#), "\(listed.text)")

            // Taken back: the old token joins again.
            #expect(try Self.delete(port, "sub=id-Ada").status == 204)
            #expect(try Self.delete(port, "sub=id-Ada").status == 404)
            #expect(try Self.delete(port, "user=id-Ada").status == 400)
            let adaBack = try BoardTestClient(port: port, board: "board", name: "-", token: adaToken)
            try Unharmed.commitAMove(adaBack)
            #expect(grace.log.allSatisfy { $0.errorMessage == nil })
        }
    }

    @Test func theRevocationsFileIsReadAtStartAndOnSIGHUP() async throws {
        try await offPool {
            let folder = try TemporaryDirectory("corkboard-revocations-file")
            let file = try folder.write("revocations.json", #"{"revocations":[{"sub":"id-Carol"}]}"#)
            let server = try TokenLifecycleServeTests.server(["--revocations", file])
            let carolToken = Self.token("Carol", issuedAt: Date().addingTimeInterval(3_600))
            // No issuedBefore in the file: every token of Carol, however new.
            try Self.expectRefused(port: server.port, token: carolToken)
            let dave = try BoardTestClient(port: server.port, board: "board", name: "-", token: Self.token("Dave", id: "d-1"))

            try #"{"revocations":[{"jti":"d-1"}]}"#.write(toFile: file, atomically: true, encoding: .utf8)
            server.process.signal(SIGHUP)
            try Self.expectSentAway(dave)
            let carol = try BoardTestClient(port: server.port, board: "board", name: "-", token: carolToken)

            // A broken file changes nothing, says why and is counted.
            try #"{"revocations":[{"jti":"d-1","colour":"red"}]}"#.write(toFile: file, atomically: true, encoding: .utf8)
            server.process.signal(SIGHUP)
            #expect(eventually { server.process.standardError.contains("revocations not reloaded") && server.process.standardError.contains("colour") })
            try Unharmed.commitAMove(carol)
            try Self.expectRefused(port: server.port, token: Self.token("Dave", id: "d-1"))
        }
    }

    @Test func aBrokenRevocationsFileStopsTheServerWithOneLine() throws {
        let folder = try TemporaryDirectory("corkboard-revocations-strict")
        try folder.write("web/index.html", "<!doctype html>")
        let file = try folder.write("revocations.json", #"{"revocations":[{"sub":"a","jti":"b"}]}"#)
        let process = try ServerProcess(
            ["serve", "--port", "0", "--no-demo", "--store", "memory", "--web-root", folder.path + "/web", "--revocations", file])
        #expect(process.waitForExit() == 1)
        let lines = process.standardError.split(separator: "\n")
        let line = "corkboard: error: revocations: \(file): revocations[0]: a revocation names \"sub\" or \"jti\", not both"
        #expect(lines.count == 1 && lines[0].hasPrefix(line), "\(process.standardError)")
    }

    @Test(.runningTimeLimit(.minutes(3)))
    func aRevocationSendsTheUsersMembersAwayOnEveryNode() async throws {
        try await offPool {
            let folder = try TemporaryDirectory("corkboard-revocations-cluster")
            let secret = try folder.write("secret", SignedTokenServeTests.secret)
            let nodes = try ClusterNode.start(
                2, databaseURL: try PostgresCluster.shared().createDatabase(), extra: ["--token-secret-file", secret],
                tokens: SignedTokenServeTests.fileTokens, ownerToken: Self.owner)
            let token = Self.token("Ada")
            let pages = try nodes.map { try BoardTestClient(port: $0.port, board: "board", name: "-", token: token) }
            let other = try BoardTestClient(port: nodes[1].port, board: "board", name: "-", token: Self.token("Grace"))
            let started = Date()
            #expect(try Self.post(nodes[0].port, #"{"sub":"id-Ada"}"#).status == 201)
            for page in pages { try Self.expectSentAway(page) }
            let took = Date().timeIntervalSince(started)
            // Figures are benchmarks' to give; this only says it happened at once, not at a later reconnect.
            #expect(took < 5, "both pages were sent away \(took) s after the revocation")
            for node in nodes { try Self.expectRefused(port: node.port, token: token) }
            try Unharmed.commitAMove(other)
        }
    }
}
