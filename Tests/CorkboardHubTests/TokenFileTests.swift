import CorkboardHub
import CorkboardModel
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
