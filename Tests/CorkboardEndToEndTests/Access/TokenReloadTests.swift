import CorkboardModel
import CorkboardWire
import Foundation
import TestSupport
import Testing

/// The token file read again on SIGHUP by a real `corkboard serve`: a revoked token's live
/// connections get `error` `forbidden` and close 1008, a changed role closes with 1012 and
/// joins again with the new role, everybody else carries on; a broken file changes nothing.
@Suite(.threadsOfTheirOwn) struct TokenReloadTests {
    static func tokens(_ grants: [String]) -> String { TokenFileRevisions.tokens(grants) }

    static let owner = TokenFileRevisions.owner
    static let first = TokenFileRevisions.first
    static let second = TokenFileRevisions.second

    @Test func sighupRevokesClosesChangedRolesAndSparesTheRest() async throws {
        try await offPool {
            let server = try ChildServer(tokens: Self.first, ownerToken: "owner-token")
            let port = server.port
            let before = try Unharmed.seed(port: port, token: "cid")
            let ann = try BoardTestClient(port: port, board: "board", name: "Ann", token: "ann")
            let bob = try BoardTestClient(port: port, board: "board", name: "Bob", token: "bob")
            let cid = try BoardTestClient(port: port, board: "board", name: "Cid", token: "cid")
            #expect(bob.welcome.role == .viewer)

            try Self.second.write(toFile: server.tokenFile, atomically: true, encoding: .utf8)
            server.process.signal(SIGHUP)

            #expect(try ann.expectClose() == .policyViolation)
            #expect(ann.log.last?.errorMessage?.code == .forbidden)
            #expect(try bob.expectClose() == .serviceRestart)
            // Bob joins again as an editor; Ann's token opens nothing any more.
            let bobAgain = try BoardTestClient(port: port, board: "board", name: "Bob", token: "bob", resumeFrom: bob)
            #expect(bobAgain.welcome.role == .editor)
            try Unharmed.commitAMove(bobAgain)
            #expect(throws: HubTestFailure.self) { try BoardTestClient(port: port, board: "board", name: "Ann", token: "ann") }
            #expect(try Unharmed.get(port, "/api/boards/board", token: "ann").status == 401)
            // Cid noticed nothing but the others leaving and Bob's move.
            try Unharmed.commitAMove(cid)
            #expect(cid.log.allSatisfy { $0.typeName != "error" })

            // A file that does not parse keeps the tokens in force.
            try "{ not json".write(toFile: server.tokenFile, atomically: true, encoding: .utf8)
            server.process.signal(SIGHUP)
            #expect(eventually { server.process.standardError.contains("tokens not reloaded") })
            try Unharmed.commitAMove(cid)
            try Unharmed.commitAMove(bobAgain)
            #expect(server.isRunning)
            let now = try Unharmed.events(port: port, board: "board", token: "cid")
            #expect(now.starts(with: before))
            try Unharmed.expect(port: port, token: "cid", eventsBefore: now)
        }
    }

    @Test func metricsNeedAMetricsTokenWhenThereIsATokenFile() async throws {
        let tokens = Self.tokens([
            Self.owner, #"{"token":"prom","role":"viewer","boards":[],"metrics":true}"#,
            #"{"token":"board-owner","role":"owner","boards":["board"]}"#,
        ])
        try await offPool {
            let server = try ChildServer(tokens: tokens, ownerToken: "owner-token")
            let port = server.port
            #expect(try Unharmed.get(port, "/metrics", token: nil).status == 401)
            #expect(try Unharmed.get(port, "/metrics", token: "board-owner").status == 403)
            #expect(try Unharmed.get(port, "/metrics", token: "prom").text.contains("corkboard_connections"))
            #expect(try Unharmed.get(port, "/metrics", token: "owner-token").status == 200)
            // The metrics token opens no board.
            #expect(try Unharmed.get(port, "/api/boards/board", token: "prom").status == 403)
            #expect(try Unharmed.get(port, "/healthz", token: nil).status == 200)
        }
    }
}
