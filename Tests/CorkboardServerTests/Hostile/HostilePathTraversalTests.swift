import CorkboardWire
import Foundation
import TestSupport
import Testing

/// Paths built to escape the web root or reach another board: encoded, double-encoded and
/// overlong dots, backslashes, NULs, a symlink out of the root, a sibling folder whose name
/// starts like the root's, absolute-form targets, and board ids made of `..` on every route
/// that takes one (static, `/b/{id}`, `/api/boards/{id}`, `hello`). None reaches a file outside
/// the root or another board.
@Suite(.threadsOfTheirOwn) struct HostilePathTraversalTests {
    static let secret = "TOP-SECRET-\(UUID().uuidString)"

    static let targets = [
        "/../secret.txt", "/..%2fsecret.txt", "/%2e%2e/secret.txt", "/%2E%2E%2Fsecret.txt", "/%252e%252e/secret.txt",
        "/%c0%ae%c0%ae/secret.txt", "/..\\secret.txt", "/..%5csecret.txt", "/secret.txt%00.html", "/.%2e/secret.txt",
        "/./../secret.txt", "//../secret.txt", "/escape/secret.txt", "/../web-sibling/secret.txt", "/%2e%2e/web-sibling/secret.txt",
        "/.hidden", "/b/..%2f..%2fsecret.txt", "/b/../../secret.txt", "/api/boards/..%2f..%2fsecret.txt",
        "/api/boards/%2e%2e/ops", "/api/boards/../ops?since=0", "http://t/../secret.txt", "/data/corkboard.sqlite",
        "/../data/corkboard.sqlite", "/%2e%2e/data/corkboard.sqlite", "/api/boards/board%00", "/api/boards/board%00x/ops?since=0",
    ]

    @Test func nothingOutsideTheWebRootOrAnotherBoardIsReachable() async throws {
        let folder = try TemporaryDirectory("corkboard-traversal")
        try folder.write("web/index.html", "<!doctype html><title>root</title>")
        try folder.write("web/.hidden", Self.secret)
        try folder.write("secret.txt", Self.secret)
        try folder.write("web-sibling/secret.txt", Self.secret)
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/web/escape", withDestinationPath: folder.path)
        let root = folder.path
        try await offPool {
            let fixture = try HubFixture { configuration in
                configuration.webRoot = root + "/web"
                configuration.dataDirectory = root + "/data"
            }
            let port = fixture.port
            let before = try Unharmed.seed(port: port)
            for target in Self.targets {
                let response = try BlockingClient.request(port: port, "GET \(target) HTTP/1.1\r\nHost: t\r\n\r\n")
                #expect([400, 404].contains(response.status), "\(target): \(response.status)")
                #expect(!response.text.contains(Self.secret), "\(target) leaked the secret")
                #expect(!response.text.contains("SQLite format"), "\(target) leaked the database")
            }
            // Board ids that try to climb or name something else are unknown boards.
            for board in ["..", "../board", "board/../board", "%2e%2e", "board\u{0}", "./board"] {
                let socket = try WebSocketTestClient(port: port)
                try socket.send(text: String(decoding: try WireFormat.encode(ClientMessage.hello(Hello(board: board, name: "X"))), as: UTF8.self))
                let answer = try socket.receiveText()
                #expect(try decodeServerText(answer).errorMessage?.code == .notFound, "hello for \(board.debugDescription): \(answer ?? "")")
                #expect(try socket.receiveClose() == .policyViolation)
            }
            try Unharmed.expect(port: port, eventsBefore: before)
        }
        withExtendedLifetime(folder) {}
    }
}
