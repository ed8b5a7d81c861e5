import CorkboardClient
import CorkboardModel
import CorkboardWire
import Foundation
import Sockets
import TestSupport
import Testing

/// `BoardAdministration`, what `corkboard boards list|delete` call, against a real
/// `corkboard serve` over its HTTP API: typed results, and each failure one line with the
/// server's own message. (`BoardsCommandTests` runs the binary only for its wiring.)
@Suite(.threadsOfTheirOwn) struct BoardAdministrationTests {
    /// An id that is not one path segment as it stands: a `/`, a space, a `?` and a `%2F`.
    static let oddID = "a/b c?d%2F"

    static func administration(_ server: CorkboardTestServer, token: String? = nil) throws -> BoardAdministration {
        try BoardAdministration(address: ServerAddress(host: "127.0.0.1", port: server.port), token: token, timeout: 10)
    }

    /// The error `body` throws; nil (and an issue) when it returns.
    static func failure<T>(_ body: () throws(BoardAdministrationError) -> T) -> BoardAdministrationError? {
        do {
            let value = try body()
            Issue.record("expected a failure, got \(value)")
            return nil
        } catch {
            return error
        }
    }

    @Test func listsEveryBoardWithItsTitleSeqAndItems() throws {
        let server = try CorkboardTestServer(demo: false, extra: ["--store", "memory"])
        try server.create(makeBoard("sprint", collections: 2, items: 3))
        try server.create(
            Board(id: Self.oddID, title: "Two\nlines", collections: [BoardCollection(id: "c", title: "C", items: [Item(id: "x", label: "X")])]))
        let moved = try server.perform(
            "sprint", OperationRequest(opId: "o1", baseSeq: 0, .move(sources: ["sprint-c0-i0"], destination: Destination(collection: "c1"))))
        guard case .committed = moved else { throw ClientTestFailure("the move was not committed: \(moved)") }
        let admin = try Self.administration(server)

        #expect(
            try admin.listBoards() == [
                BoardSummary(id: Self.oddID, title: "Two\nlines", seq: 0), BoardSummary(id: "sprint", title: "Board sprint", seq: 1),
            ])
        let rows = try admin.listedBoards()
        #expect(
            rows == [
                ListedBoard(id: Self.oddID, title: "Two\nlines", seq: 0, items: 1),
                ListedBoard(id: "sprint", title: "Board sprint", seq: 1, items: 6),
            ])
        // Columns padded to the widest cell; the title's line break escaped.
        #expect(
            ListedBoard.table(rows) == """
                ID          TITLE         SEQ  ITEMS
                a/b c?d%2F  Two\\nlines    0    1
                sprint      Board sprint  1    6
                """)
    }

    @Test func readsABoardAndAMissingOneIsNil() throws {
        let server = try CorkboardTestServer(extra: ["--store", "memory"])
        let odd = Board(id: Self.oddID, title: "Odd", collections: [BoardCollection(id: "c", title: "C", items: [])])
        try server.create(odd)
        let admin = try Self.administration(server)

        let document = try #require(try admin.board(Self.oddID))
        #expect(document.board == odd)
        #expect(document.seq == 0)
        #expect(try admin.board("demo") == (try server.document("demo")))
        #expect(try admin.board("nope") == nil)
        // Percent-encoded, the id is not read as `a` / `b c` with a query.
        #expect(try admin.board("a") == nil)
    }

    @Test func deletesABoardAndASecondDeleteFindsNoSuchBoard() throws {
        let server = try CorkboardTestServer(extra: ["--store", "memory"])
        try server.create(Board(id: Self.oddID, title: "Odd", collections: []))
        let admin = try Self.administration(server)

        try admin.deleteBoard(Self.oddID)
        #expect(try admin.board(Self.oddID) == nil)
        #expect(try admin.listBoards().map(\.id) == ["demo"])
        let again = Self.failure { () throws(BoardAdministrationError) in try admin.deleteBoard(Self.oddID) }
        #expect(again == .noSuchBoard(Self.oddID))
        #expect(again?.description == #"there is no board "a/b c?d%2F""#)
        #expect(BoardAdministrationError.noSuchBoard("x\ny").description == #"there is no board "x\ny""#)
    }

    @Test func aRefusedTokenIsTheServersStatusAndMessage() throws {
        let tokens = try TemporaryDirectory("corkboard-admin-tokens")
        let file = try tokens.write(
            "tokens.json", #"{"tokens":[{"token":"edit","role":"editor","boards":"*"},{"token":"own","role":"owner","boards":"*"}]}"#)
        let server = try CorkboardTestServer(extra: ["--store", "memory", "--tokens", file])
        let url = "http://127.0.0.1:\(server.port)"

        let editor = try Self.administration(server, token: "edit")
        let forbidden = Self.failure { () throws(BoardAdministrationError) in try editor.deleteBoard("demo") }
        #expect(forbidden == .refused(server: url, status: 403, message: "only an owner may delete a board"))
        #expect(forbidden?.description == "\(url) answered 403: only an owner may delete a board")

        let nobody = try Self.administration(server)
        let anonymous = Self.failure { () throws(BoardAdministrationError) in try nobody.listBoards() }
        #expect(anonymous?.description == "\(url) answered 401: a token is needed: Authorization: Bearer <token>")
        let stranger = try Self.administration(server, token: "wrong")
        let unknown = Self.failure { () throws(BoardAdministrationError) in try stranger.listBoards() }
        guard case .refused(url, 401, let message) = unknown else {
            Issue.record("expected a 401, got \(String(describing: unknown))")
            return
        }
        #expect(!message.isEmpty && unknown?.description == "\(url) answered 401: \(message)")

        #expect(try Self.administration(server, token: "own").listedBoards().map(\.id) == ["demo"])
        #expect(try Self.administration(server, token: "own").board("demo") != nil, "nothing was deleted")
    }

    /// Over IPv4 and IPv6: the line names the server as a URL would (an IPv6 host bracketed).
    @Test(arguments: [("127.0.0.1", AF_INET, "127.0.0.1"), ("::1", AF_INET6, "[::1]")])
    func aClosedPortCannotBeReached(host: String, family: Int32, named: String) throws {
        // A bound socket that never listens: the port is ours, and connecting is refused.
        let bound = try Socket.tcp(family: family)
        defer { bound.close() }
        try bound.bind(to: try #require(try SocketAddress.resolve(host: host, port: 0).first))
        let port = try bound.localAddress().port
        let admin = try BoardAdministration(address: ServerAddress(host: host, port: port), timeout: 5)

        let failure = Self.failure { () throws(BoardAdministrationError) in try admin.listBoards() }
        guard case .cannotReach(let server, _) = failure else {
            Issue.record("expected cannotReach, got \(String(describing: failure))")
            return
        }
        #expect(server == "http://\(named):\(port)")
        let line = try #require(failure?.description)
        #expect(line.hasPrefix("cannot reach http://\(named):\(port): ") && !line.contains("\n"), "\(line)")
    }

    @Test func overHTTPSTheCertificateIsCheckedAgainstTheCAFile() throws {
        let keys = try TemporaryDirectory("corkboard-admin-keys")
        let certificate = try TestCertificate.make(in: keys.path, name: "server", serial: "D4")
        let server = try CorkboardTestServer(
            extra: ["--store", "memory", "--tls-cert", certificate.certificatePath, "--tls-key", certificate.keyPath])
        let address = try ServerAddress(url: "wss://localhost:\(server.port)")

        let trusting = try BoardAdministration(address: address, trustedCAFile: certificate.certificatePath)
        #expect(try trusting.listedBoards().map(\.id) == ["demo"])
        let untrusting = try BoardAdministration(address: address)
        let refusal = Self.failure { () throws(BoardAdministrationError) in try untrusting.deleteBoard("demo") }
        guard case .cannotReach("https://localhost:\(server.port)", let reason) = refusal else {
            Issue.record("expected cannotReach, got \(String(describing: refusal))")
            return
        }
        #expect(reason.contains("certificate verification failed"), "\(reason)")
        #expect(try trusting.board("demo") != nil, "nothing was deleted")

        let notPEM = try keys.write("not-a-ca.pem", "not a certificate\n")
        do {
            _ = try BoardAdministration(address: address, trustedCAFile: notPEM)
            Issue.record("a CA file that is not PEM was accepted")
        } catch {
            guard case .unusableTrust(let problem) = error else {
                Issue.record("expected unusableTrust, got \(error)")
                return
            }
            #expect(!problem.isEmpty && error.description == problem)
        }
    }

    @Test func boardIdsArePercentEncodedAsOnePathSegment() {
        #expect(BoardAdministration.pathSegment("demo") == "demo")
        #expect(BoardAdministration.pathSegment("sprint-12_a.b~c") == "sprint-12_a.b~c")
        #expect(BoardAdministration.pathSegment(Self.oddID) == "a%2Fb%20c%3Fd%252F")
        #expect(BoardAdministration.pathSegment("é#") == "%C3%A9%23")
    }

    @Test func theTableAndTheJSONOfAListing() {
        let rows = [
            ListedBoard(id: "a/b", title: "Tab\there", seq: 12, items: 7),
            ListedBoard(id: "zeta", title: "Z", seq: 1, items: 10),
        ]
        #expect(
            ListedBoard.table(rows) == """
                ID    TITLE      SEQ  ITEMS
                a/b   Tab\\there  12   7
                zeta  Z          1    10
                """)
        #expect(ListedBoard.table([]) == "ID  TITLE  SEQ  ITEMS")
        #expect(
            ListedBoard.json(rows)
                == #"{"boards":[{"id":"a/b","items":7,"seq":12,"title":"Tab\there"},{"id":"zeta","items":10,"seq":1,"title":"Z"}]}"#)
        #expect(ListedBoard.json([]) == #"{"boards":[]}"#)
    }

    @Test func everyFailureIsOneLine() {
        let server = "http://127.0.0.1:8080"
        #expect(
            BoardAdministrationError.refused(server: server, status: 400, message: "two\nlines").description
                == #"http://127.0.0.1:8080 answered 400: two\nlines"#)
        #expect(
            BoardAdministrationError.cannotReach(server: server, reason: "refused").description
                == "cannot reach http://127.0.0.1:8080: refused")
        #expect(
            BoardAdministrationError.unexpectedAnswer("no key \"boards\"").description
                == #"the server's answer is not what this command expects: no key "boards""#)
    }
}
