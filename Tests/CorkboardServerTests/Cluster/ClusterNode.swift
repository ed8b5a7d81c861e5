import CorkboardModel
import CorkboardWire
import Foundation
import Glibc
import TestSupport

/// A real `corkboard serve --store postgres` child: one node of a cluster sharing a database.
final class ClusterNode: @unchecked Sendable {
    let folder: TemporaryDirectory
    let process: ServerProcess
    let port: UInt16

    init(databaseURL: String) throws {
        folder = try TemporaryDirectory("corkboard-node")
        try folder.write("web/index.html", "<!doctype html><title>node</title>")
        process = try ServerProcess([
            "serve", "--port", "0", "--no-demo", "--log-level", "warning", "--loops", "2",
            "--web-root", folder.path + "/web", "--store", "postgres", "--database-url", databaseURL,
        ])
        guard let port = process.waitForListeningPort(timeout: 30) else {
            throw HubTestFailure("corkboard serve --store postgres did not start: \(process.standardError)")
        }
        self.port = port
    }

    /// Nodes on one fresh database, with the standard board created through the first.
    static func start(_ count: Int, databaseURL: String) throws -> [ClusterNode] {
        let nodes = try (0..<count).map { _ in try ClusterNode(databaseURL: databaseURL) }
        try Unharmed.createBoard(port: nodes[0].port)
        return nodes
    }

    deinit {
        process.signal(SIGTERM)
        _ = process.waitForExit(timeout: 10)
    }

    var isRunning: Bool { process.process.isRunning }

    /// As a crash: nothing is flushed, no connection is closed politely.
    func kill() {
        process.signal(SIGKILL)
        _ = process.waitForExit(timeout: 10)
    }

    func events(board: String = "board") throws -> [CommittedEvent] {
        try Unharmed.events(port: port, board: board, token: nil)
    }

    /// A counter of its `/metrics` (0 when absent).
    func counter(_ name: String) throws -> Int {
        let text = try BlockingClient.request(port: port, "GET /metrics HTTP/1.1\r\nHost: t\r\n\r\n").text
        let line = text.split(separator: "\n").first { $0.hasPrefix(name + " ") }
        return line.flatMap { Double($0.split(separator: " ").last ?? "") }.map { Int($0) } ?? 0
    }

    func document(board: String = "board") throws -> BoardDocument {
        try Unharmed.document(port: port, board: board, token: nil)
    }
}

/// A move that never noops: `item` goes to the end of the other collection than the one
/// holding it in `client`'s replica.
func alternatingMove(_ item: ItemID, in client: BoardTestClient) -> RequestedOperation {
    let holder = client.board.collections.first { $0.items.contains { $0.id == item } }?.id
    return .move(sources: [item], destination: Destination(collection: holder == "todo" ? "done" : "todo"))
}
