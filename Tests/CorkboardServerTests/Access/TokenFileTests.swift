import CorkboardHub
import CorkboardModel
import CorkboardServer
import Foundation
import Testing

@Suite struct TokenFileTests {
    func write(_ text: String) throws -> String {
        let path = NSTemporaryDirectory() + "tokens-\(UUID().uuidString).json"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func rolesPerBoardPatternAndEverywhere() throws {
        let path = try write(
            #"{"tokens":[{"token":"o","role":"owner","boards":"*"},{"token":"v","role":"viewer","boards":["a","team-*"]}]}"#)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let file = try TokenFile(contentsOf: path)
        #expect(file.role(token: "o", board: "anything") == .owner)
        #expect(file.role(token: "v", board: "a") == .viewer)
        #expect(file.role(token: "v", board: "team-blue") == .viewer)
        #expect(file.role(token: "v", board: "team") == nil)
        #expect(file.role(token: "v", board: "b") == nil)
        #expect(file.role(token: nil, board: "a") == nil)
        #expect(file.role(token: "x", board: "a") == nil)
        #expect(file.judge(token: nil, checkingLifetime: true) == .missing)
        #expect(file.judge(token: "x", checkingLifetime: true) == .refused("the token is not valid"))
    }

    /// A grant's `name` is who its commits are by, whatever the hello says; without one the hello's name.
    @Test func aGrantsNameIsTheAuthorOfItsCommits() throws {
        let path = try write(
            #"{"tokens":[{"token":"ci","role":"editor","boards":"*","name":"ci-bot"},{"token":"o","role":"owner","boards":"*"}]}"#)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let file = try TokenFile(contentsOf: path)
        let named = try #require(file.judge(token: "ci", checkingLifetime: true).holder)
        #expect(named.author(named: "Someone") == "ci-bot" && named.httpAuthor == "ci-bot")
        // Not the display name: several people may share the token.
        #expect(named.name == nil)
        let unnamed = try #require(file.judge(token: "o", checkingLifetime: true).holder)
        #expect(unnamed.author(named: "Someone") == "Someone" && unnamed.httpAuthor == "http")
    }

    /// Each mistake refuses the whole file with one line naming the grant: nothing it could
    /// mean is ever guessed, since a guess could only grant more.
    @Test(arguments: [
        (#"{"tokens":[{"token":"x","role":"owner","board":["a"]}]}"#, #"tokens[0]: unknown key "board" (a grant has token, role, boards, metrics and name)"#),
        (#"{"tokens":[{"token":"t","role":"viewer","boards":[],"name":""}]}"#, #"tokens[0]: "name" must be a non-empty string of at most 256 bytes"#),
        (#"{"tokens":[{"token":"t","role":"viewer","boards":[],"name":7}]}"#, #"tokens[0]: "name" must be a non-empty string of at most 256 bytes"#),
        (#"{"tokens":[{"token":"x","role":"owner"}]}"#, #"tokens[0]: "boards" is missing: write "*" for every board, or a list of ids and patterns"#),
        (
            #"{"tokens":[{"token":"a","role":"owner","boards":"*"},{"token":"t","role":"admin","boards":"*"}]}"#,
            #"tokens[1]: role "admin" is not one of viewer, editor, owner"#
        ),
        (#"{"tokens":[{"token":"t","role":"owner","boards":"all"}]}"#, #"tokens[0]: "boards" must be "*" (every board) or a list of board ids and patterns"#),
        (#"{"tokens":[{"token":"t","role":"owner","boards":null}]}"#, #"tokens[0]: "boards" must be "*" (every board) or a list of board ids and patterns"#),
        (#"{"tokens":[{"token":"t","role":"owner","boards":[""]}]}"#, #"tokens[0]: "boards" holds board ids and patterns (non-empty strings)"#),
        (#"{"tokens":[{"token":"t","role":"viewer","boards":[],"metrics":"yes"}]}"#, #"tokens[0]: "metrics" must be true or false"#),
        (#"{"tokens":[{"token":"","role":"owner","boards":"*"}]}"#, "tokens[0]: the token must not be empty"),
        (#"{"tokens":[{"token":"t","role":"owner","boards":"*"},{"token":"t","role":"viewer","boards":"*"}]}"#, "tokens[1]: this token appears twice"),
        (#"{"tokens":[{"role":"owner","boards":"*"}]}"#, #"tokens[0]: "token" must be a string"#),
        (#"{"tokens":[],"token":[]}"#, #"unknown key "token" at the top (only "tokens")"#),
        (#"{"grants":[]}"#, #"no "tokens" list; a token file is "#),
        ("[1,2]", #"no "tokens" list; a token file is "#),
        ("not json", "not JSON; a token file is "),
        (
            #"{"tokens":[{"token":"t","role":"owner","boards":"*","role":"viewer"}]}"#,
            #"the key "role" is given twice in one object; each may be given once"#
        ),
        (
            #"{"tokens":[{"token":"t","role":"editor","boards":["a","*"]}]}"#,
            #"tokens[0]: "boards": a lone "*" in a list is refused: write "boards": "*" for every board"#
        ),
        (
            #"{"tokens":[{"token":"t","role":"editor","boards":["cafe\u0301"]}]}"#,
            #"tokens[0]: "boards": "cafe\u{301}" is not a board id (1…128 bytes of UTF-8 in Unicode NFC, without NUL)"#
        ),
        (#"{"tokens":[{"token":"t","role":"editor","boards":["cafe\u0301-*"]}]}"#, #"tokens[0]: "boards": the pattern "#),
    ])
    func mistakesAreRefusedWithOneLineNamingTheGrant(_ text: String, _ reason: String) throws {
        let path = try write(text)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let error = #expect(throws: TokenFileError.self) { try TokenFile(contentsOf: path) }
        #expect(error?.description.hasPrefix("\(path): \(reason)") == true, "\(error?.description ?? "")")
        #expect(error?.description.contains("\n") == false)
    }

    /// Grants are matched as bytes: a pattern covers what begins with its bytes, an escaped
    /// final star is part of one id, and no other Unicode spelling of a granted id is covered.
    @Test func grantsAreMatchedAsBytes() throws {
        let path = try write(#"{"tokens":[{"token":"e","role":"editor","boards":["wip\\*","team-*","caf\u00e9"]}]}"#)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let file = try TokenFile(contentsOf: path)
        #expect(file.role(token: "e", board: "wip*") == .editor)
        #expect(file.role(token: "e", board: "wipx") == nil && file.role(token: "e", board: "wip\\*") == nil)
        #expect(file.role(token: "e", board: "team-x\u{301}") == .editor)
        #expect(file.role(token: "e", board: "caf\u{E9}") == .editor)
        #expect(file.role(token: "e", board: "cafe\u{301}") == nil)
        #expect(BoardGrant(entry: "x\u{301}*") == .prefix("x\u{301}"))
        #expect(BoardGrant(entry: "x").covers("x") && !BoardGrant(entry: "x").covers("x\u{301}"))
        #expect(BoardGrant(entry: "x*").covers("x\u{301}"))
    }

    @Test func aMissingFileIsNamed() {
        let error = #expect(throws: TokenFileError.self) { try TokenFile(contentsOf: "/nonexistent/tokens.json") }
        #expect(error?.description == "cannot read /nonexistent/tokens.json")
    }
}

@Suite struct TokenFileMatchingTests {
    static let file = try! TokenFile(grants: [
        TokenFile.Grant(token: "s3cret-owner", role: .owner, boards: .all),
        TokenFile.Grant(token: "s3cret-owner-2", role: .viewer, boards: ["a"]),
        TokenFile.Grant(token: "prom", role: .viewer, boards: [], metrics: true),
    ])

    @Test func onlyTheWholeTokenMatches() {
        #expect(Self.file.role(token: "s3cret-owner", board: "x") == .owner)
        #expect(Self.file.role(token: "s3cret-owner-2", board: "a") == .viewer)
        for guess in ["s3cret-owne", "s3cret-owner ", "S3CRET-OWNER", "s3cret-owner-", "", "s3cret-owner\u{0}"] {
            #expect(Self.file.role(token: guess, board: "x") == nil, "\(guess.debugDescription)")
        }
    }

    @Test func metricsNeedAnOwnerOfEveryBoardOrAMetricsToken() {
        #expect(Self.file.mayReadMetrics(token: "s3cret-owner"))
        #expect(Self.file.mayReadMetrics(token: "prom"))
        #expect(!Self.file.mayReadMetrics(token: "s3cret-owner-2"))
        #expect(!Self.file.mayReadMetrics(token: nil))
        // The metrics token opens no board.
        #expect(Self.file.role(token: "prom", board: "a") == nil)
        #expect(OpenAccess().mayReadMetrics(token: nil))
    }
}
