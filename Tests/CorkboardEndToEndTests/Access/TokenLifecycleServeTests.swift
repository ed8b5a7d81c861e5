import CorkboardHub
import CorkboardModel
import CorkboardServer
import CorkboardWire
import Foundation
import TestSupport
import Testing
import WebSocket

/// A signed token's life on a live connection, against a real `corkboard serve`
/// (docs/protocol.md#refreshing-the-token, docs/security.md#revoking-tokens): the welcome says
/// when it expires, a refresh over the socket keeps the connection, one that expires unrefreshed
/// closes it 4001, and a revocation sends its members away and refuses it afterwards.
@Suite(.threadsOfTheirOwn) struct TokenLifecycleServeTests {
    static let signer = SignedTokenServeTests.signer
    static let owner = "owner-token"

    static func token(
        _ name: String, role: Role = .editor, boards: BoardScope = ["board"], expires: Date = Date().addingTimeInterval(600),
        issuedAt: Date? = nil, id: String? = nil
    ) -> String {
        signer.mint(
            SignedTokenClaims(
                subject: "id-\(name)", name: name, boards: boards, role: role, expires: expires, issuedAt: issuedAt, tokenID: id))
    }

    static func server(_ extra: [String] = []) throws -> ChildServer {
        let folder = try TemporaryDirectory("corkboard-lifecycle")
        let secret = try folder.write("secret", SignedTokenServeTests.secret)
        return try ChildServer(["--token-secret-file", secret] + extra, tokens: SignedTokenServeTests.fileTokens, ownerToken: owner)
    }

    /// Sends `{"type":"token"}` and reads the answer.
    static func refresh(_ client: BoardTestClient, with token: String) throws -> ServerMessage {
        try client.send(.token(token))
        return try client.waitFor("the answer to token") { $0.typeName.hasPrefix("token.") }
    }

    static func milliseconds(_ date: Date) -> Int { Int((date.timeIntervalSince1970 * 1000).rounded(.down)) }

    @Test func aLiveConnectionTakesARefreshedTokenOfTheSameUserAndRoleOnly() async throws {
        try await offPool {
            let server = try Self.server()
            let firstExpiry = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 + 600).rounded(.down))
            let ada = try BoardTestClient(port: server.port, board: "board", name: "-", token: Self.token("Ada", expires: firstExpiry))
            #expect(ada.welcome.tokenExpiresAt == Self.milliseconds(firstExpiry))

            let laterExpiry = firstExpiry.addingTimeInterval(3_000)
            #expect(try Self.refresh(ada, with: Self.token("Ada", expires: laterExpiry)) == .tokenAccepted(expiresAt: Self.milliseconds(laterExpiry)))

            let refusals: [(String, ErrorCode, String)] = [
                ("not.a.token", .unauthorized, "the token is malformed"),
                (Self.token("Ada", expires: Date().addingTimeInterval(-SignedTokens.leeway - 5)), .unauthorized, "the token expired at"),
                (Self.token("Bob"), .forbidden, "the token is another user's; join again with it"),
                (Self.token("Ada", role: .viewer), .forbidden, "the token grants another role (viewer); join again with it"),
                (Self.token("Ada", boards: ["other"]), .forbidden, "the token is not valid for board \"board\""),
                (Self.owner, .forbidden, "the token is another user's; join again with it"),
            ]
            for (token, code, message) in refusals {
                guard case .tokenRefused(let refusal) = try Self.refresh(ada, with: token) else {
                    Issue.record("\(message): not refused")
                    continue
                }
                #expect(refusal.code == code && refusal.message.hasPrefix(message), "\(refusal)")
            }
            // Refused refreshes leave the connection as it was: it still commits, under its name.
            #expect(try Unharmed.commitAMove(ada).by == "id-Ada")
        }
    }

    @Test func aTokenThatExpiresUnrefreshedClosesTheConnectionWith4001() async throws {
        try await offPool {
            let server = try Self.server()
            // Valid at hello only thanks to the 30 s leeway: its grace ends about a second from now.
            let expires = Date().addingTimeInterval(-SignedTokens.leeway + 1)
            let ada = try BoardTestClient(port: server.port, board: "board", name: "-", token: Self.token("Ada", expires: expires))
            #expect(try ada.expectClose()?.rawValue == 4001)
            let error = try #require(ada.log.last?.errorMessage)
            #expect(error.code == .unauthorized && error.message.hasPrefix("the token expired at "), "\(error)")

            // The same, refreshed in time: the connection stays past the first token's grace.
            let grace = Date().addingTimeInterval(-SignedTokens.leeway + 1)
            let bob = try BoardTestClient(port: server.port, board: "board", name: "-", token: Self.token("Bob", expires: grace))
            guard case .tokenAccepted = try Self.refresh(bob, with: Self.token("Bob")) else {
                Issue.record("the refresh was not accepted")
                return
            }
            // Past the first token's grace (its check, if it were still due, ran meanwhile).
            while Date() < grace.addingTimeInterval(SignedTokens.leeway + 0.5) { _ = try bob.sync() }
            try Unharmed.commitAMove(bob)
            #expect(bob.log.allSatisfy { $0.errorMessage == nil })
        }
    }
}
