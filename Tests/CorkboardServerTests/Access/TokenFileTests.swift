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

    @Test func rolesPerBoardAndEverywhere() throws {
        let path = try write(#"{"tokens":[{"token":"o","role":"owner"},{"token":"v","role":"viewer","boards":["a"]}]}"#)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let file = try TokenFile(contentsOf: path)
        #expect(file.role(token: "o", board: "anything") == .owner)
        #expect(file.role(token: "v", board: "a") == .viewer)
        #expect(file.role(token: "v", board: "b") == nil)
        #expect(file.role(token: nil, board: "a") == nil)
        #expect(file.role(token: "x", board: "a") == nil)
    }

    @Test(arguments: [
        #"{"tokens":[{"token":"","role":"owner"}]}"#,
        #"{"tokens":[{"token":"t","role":"owner"},{"token":"t","role":"viewer"}]}"#,
        #"{"tokens":[{"token":"t","role":"admin"}]}"#,
        #"[1,2]"#,
        "not json",
    ])
    func badFilesAreRefusedWithAReason(_ text: String) throws {
        let path = try write(text)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(throws: TokenFileError.self) { try TokenFile(contentsOf: path) }
        #expect(throws: TokenFileError.self) { try TokenFile(contentsOf: path + ".missing") }
    }
}

@Suite struct TokenFileMatchingTests {
    static let file = try! TokenFile(grants: [
        TokenFile.Grant(token: "s3cret-owner", role: .owner),
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
