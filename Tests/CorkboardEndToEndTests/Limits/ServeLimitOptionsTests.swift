import CorkboardModel
import CorkboardWire
import Foundation
import TestSupport
import Testing

/// `corkboard serve` takes every limit of BoardLimitTests (and the connection deadlines) from its
/// options, and refuses a bad value as a usage error (exit status 64).
@Suite(.threadsOfTheirOwn) struct ServeLimitOptionsTests {
    @Test func serveTakesEveryLimitFromItsFlags() async throws {
        try await offPool {
            let server = try ChildServer([
                "--max-boards", "1", "--max-items-per-board", "9", "--max-collections-per-board", "2", "--max-connections", "100",
                "--max-connections-per-ip", "5", "--max-output-bytes", "100000",
                "--handshake-timeout", "1", "--hello-timeout", "1", "--idle-timeout", "1",
            ])
            let port = server.port
            var board = HubFixture.standardBoard
            board.id = "second"
            let body = String(decoding: try WireFormat.encode(BoardAPI.newBoardBody(board)), as: UTF8.self)
            #expect(try Unharmed.post(port, "/api/boards", body: body, token: nil).status == 507)
            let client = try BoardTestClient(port: port, board: "board", name: "C")
            try client.commit(.insert(items: [Item(id: "n1", label: "1")], destination: Destination(collection: "todo")))
            #expect(try client.reject(.insert(items: [Item(id: "n2", label: "2")], destination: Destination(collection: "todo"))).code == .invalid)
            #expect(try client.reject(.addCollection(collection: "later", title: "Later", before: nil)).message == "the board holds at most 2 collections")
            // The hello and handshake deadlines are one second.
            let silent = try WebSocketTestClient(port: port)
            let started = Date()
            #expect(try decodeServerText(try silent.receiveText()).errorMessage?.message == "no hello within 1 s")
            #expect(Date().timeIntervalSince(started) < 8, "the default is 10 s")
            let idle = try BlockingClient(port: port)
            #expect(idle.isClosedByPeer())
        }
        for bad in [
            ["--max-output-bytes", "10"], ["--max-boards", "-1"], ["--max-collections-per-board", "-2"], ["--hello-timeout", "0"], ["--max-connections", "x"],
        ] {
            let process = try ServerProcess(["serve", "--port", "0"] + bad)
            #expect(process.waitForExit() == 64, "\(bad)")
        }
    }
}
