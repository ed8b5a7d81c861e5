import CorkboardModel
import CorkboardWire
import Foundation
import Glibc
import TestSupport

/// A real `corkboard serve --store postgres` child: one node of a cluster sharing a database.
final class ClusterNode: @unchecked Sendable {
    let server: ChildServer
    var port: UInt16 { server.port }

    /// `port`: a given one (a node restarted where a balancer expects it) instead of a free one.
    /// `extra` options and a token file (`tokens`) as `ChildServer` takes them.
    init(databaseURL: String, port: UInt16? = nil, extra: [String] = [], tokens: String? = nil) throws {
        let listening = port.map { ["--port", "\($0)"] } ?? []
        server = try ChildServer(
            ["--store", "postgres", "--database-url", databaseURL] + listening + extra, tokens: tokens, createsBoard: false,
            startTimeout: 30)
    }

    /// Nodes on one fresh database, with the standard board created through the first (with
    /// `ownerToken` when they take tokens).
    static func start(
        _ count: Int, databaseURL: String, extra: [String] = [], tokens: String? = nil, ownerToken: String? = nil
    ) throws -> [ClusterNode] {
        let nodes = try (0..<count).map { _ in try ClusterNode(databaseURL: databaseURL, extra: extra, tokens: tokens) }
        try Unharmed.createBoard(port: nodes[0].port, token: ownerToken)
        return nodes
    }

    /// A clean stop (SIGTERM), as a deployment's rolling restart does.
    func stop() {
        server.process.signal(SIGTERM)
        _ = server.process.waitForExit(timeout: 20)
    }

    /// As a crash: nothing is flushed, no connection is closed politely.
    func kill() {
        server.process.signal(SIGKILL)
        _ = server.process.waitForExit(timeout: 10)
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
