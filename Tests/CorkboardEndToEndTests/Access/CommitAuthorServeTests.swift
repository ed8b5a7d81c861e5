import CorkboardHub
import CorkboardModel
import CorkboardServer
import CorkboardWire
import Foundation
import TestSupport
import Testing

/// Each committed event says when and by whom (docs/protocol.md#outcomes), against a real
/// `corkboard serve` with signed tokens beside a token file: `by` is the signed token's `sub`
/// whatever name the hello gave, then a token-file grant's `name`, else the hello's name, and
/// over HTTP the `sub`, the grant's `name` or `"http"`; `at` is the server's clock, within the test's start and end. Every
/// carrier (the sender's and the others' `committed`, a resume's replay, `GET …/ops`, a resent
/// opId's answer) carries the same two values.
@Suite(.threadsOfTheirOwn) struct CommitAuthorServeTests {
    /// `SignedTokenServeTests`' server, whose token file also has a grant with a name.
    static func server() throws -> ChildServer {
        let folder = try TemporaryDirectory("corkboard-secret")
        let path = try folder.write("secret", SignedTokenServeTests.secret)
        let tokens = #"""
            {"tokens":[{"token":"owner-token","role":"owner","boards":"*"},
                       {"token":"ci-token","role":"editor","boards":["board"],"name":"ci-bot"}]}
            """#
        return try ChildServer(["--token-secret-file", path], tokens: tokens, ownerToken: "owner-token")
    }

    static func millisecondsNow() -> Int { Int((Date().timeIntervalSince1970 * 1000).rounded(.down)) }

    /// `POST …/ops`: a move of the board's first item to the other collection, as `opId`.
    static func httpMove(port: UInt16, token: String, opId: String) throws -> TestHTTPResponse {
        let document = try Unharmed.document(port: port, board: "board", token: token)
        let collections = document.board.collections
        let from = try #require(collections.firstIndex { !$0.items.isEmpty })
        let request = OperationRequest(
            opId: opId, baseSeq: document.seq,
            .move(sources: [collections[from].items[0].id], destination: Destination(collection: collections[(from + 1) % collections.count].id)))
        let body = String(decoding: try WireFormat.encode(ClientMessage.operation(request)), as: UTF8.self)
        return try Unharmed.post(port, "/api/boards/board/ops", body: body, token: token)
    }

    static func committed(_ response: TestHTTPResponse) throws -> CommittedEvent {
        guard response.status == 200, case .committed(let event) = try WireFormat.decodeServerMessage(Data(response.body)) else {
            throw HubTestFailure("expected a committed answer, got \(response.status) \(response.text)")
        }
        return event
    }

    @Test func byIsTheTokenSubjectOrTheHelloNameAndAtIsTheCommitTime() async throws {
        try await offPool {
            let server = try Self.server()
            let port = server.port
            let start = Self.millisecondsNow()

            // Joins at seq 0 and leaves: it resumes from there once the events are in.
            let early = try BoardTestClient(port: port, board: "board", name: "Early", token: "owner-token")
            try early.close()
            let adaToken = SignedTokenServeTests.token("Ada")
            let ada = try BoardTestClient(port: port, board: "board", name: "claims to be Bob", token: adaToken)
            let wall = try BoardTestClient(port: port, board: "board", name: "Wall display", token: "owner-token")
            let bySignedToken = try Unharmed.commitAMove(ada)
            #expect(bySignedToken.by == "id-Ada")
            let byHelloName = try Unharmed.commitAMove(wall)
            #expect(byHelloName.by == "Wall display")
            let ci = try BoardTestClient(port: port, board: "board", name: "claims to be Ada", token: "ci-token")
            let byGrantName = try Unharmed.commitAMove(ci)
            #expect(byGrantName.by == "ci-bot")
            try ci.close()

            let httpBySubject = try Self.committed(try Self.httpMove(port: port, token: adaToken, opId: "http-ada"))
            #expect(httpBySubject.by == "id-Ada")
            let httpByGrantName = try Self.committed(try Self.httpMove(port: port, token: "ci-token", opId: "http-ci"))
            #expect(httpByGrantName.by == "ci-bot")
            let firstAnswer = try Self.httpMove(port: port, token: "owner-token", opId: "http-owner")
            let httpAnonymous = try Self.committed(firstAnswer)
            #expect(httpAnonymous.by == TokenHolder.anonymousHTTPAuthor)
            // The opId sent again, by another caller, later: its first answer, byte for byte.
            let resent = try Self.httpMove(port: port, token: adaToken, opId: "http-owner")
            #expect(resent.status == 200 && resent.body == firstAnswer.body)

            let end = Self.millisecondsNow()
            let mine = [bySignedToken, byHelloName, byGrantName, httpBySubject, httpByGrantName, httpAnonymous]
            // The log, each member's live stream and the answers carry the same events.
            #expect(try Unharmed.events(port: port, board: "board", token: "owner-token") == mine)
            _ = try ada.sync()
            _ = try wall.sync()
            #expect(ada.events == mine && wall.events == mine)
            let resumed = try BoardTestClient(port: port, board: "board", name: "Early", token: "owner-token", resumeFrom: early)
            #expect(resumed.welcome.resumed)
            _ = try resumed.sync()
            #expect(resumed.events == mine)
            let times = mine.compactMap(\.at)
            #expect(times.count == mine.count)
            #expect(times.allSatisfy { (start...end).contains($0) }, "\(times) not within \(start)...\(end)")
            #expect(times == times.sorted())
            for client in [ada, wall, resumed] { try client.close() }
        }
    }
}
