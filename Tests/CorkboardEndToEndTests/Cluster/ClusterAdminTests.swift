import CorkboardModel
import CorkboardWire
import Foundation
import HubTestSupport
import TestSupport
import Testing

/// The admin overview on nodes sharing PostgreSQL (docs/protocol.md#admin): a node names
/// itself by its node name, lists the other nodes alive, and lists on a board open here the
/// members of the other nodes it heard of, with their node; a drain is the answering node's own.
@Suite(.threadsOfTheirOwn) struct ClusterAdminTests {
    static func overview(_ node: ClusterNode) throws -> JSONObject {
        let answer = try BoardAPI(port: node.port).get("/api/admin/overview")
        return try #require(answer.object, "\(answer)")
    }

    @Test(.runningTimeLimit(.minutes(3)))
    func aNodeListsTheOtherNodesAndTheirMembersOnItsBoards() async throws {
        try await offPool {
            let nodes = try ClusterNode.start(2, databaseURL: try PostgresCluster.shared().createDatabase())
            let ada = try BoardTestClient(port: nodes[0].port, board: "board", name: "Ada")
            let bob = try BoardTestClient(port: nodes[1].port, board: "board", name: "Bob")
            _ = try ada.waitFor("Bob joining") { message in
                switch message {
                case .peerJoined(let client, _, _): client == bob.clientID
                case .peers(let change): change.joined.contains { $0.client == bob.clientID }
                default: false
                }
            }
            let first = try #require(try Self.overview(nodes[0])["node"]?.objectValue?["id"]?.stringValue)
            let second = try #require(try Self.overview(nodes[1])["node"]?.objectValue?["id"]?.stringValue)
            #expect(first != "local" && second != "local" && first != second)
            #expect(ada.clientID.hasSuffix("-" + first) && bob.clientID.hasSuffix("-" + second))

            // Node 1 is alive to node 0 once its heartbeat came (every second).
            #expect(try eventually(timeout: 10) { try Self.overview(nodes[0])["nodes"] == .array([.object(["id": .string(second)])]) })
            let overview = try Self.overview(nodes[0])
            let board = try #require(overview["boards"]?.elements?.first?.objectValue, "a board in \(overview)")
            #expect(board["id"] == "board")
            #expect(board["memberCount"] == .number(2))
            #expect(
                board["members"]
                    == .array([
                        .object([
                            "client": .string(ada.clientID), "name": "Ada", "user": "Ada", "role": "owner", "node": .string(first),
                            "observes": .bool(false),
                        ]),
                        .object(["client": .string(bob.clientID), "name": "Bob", "node": .string(second), "observes": .bool(false)]),
                    ]), "\(board)")

            // Draining node 0 leaves node 1 ready.
            #expect(try BoardAPI(port: nodes[0].port).send("POST", "/api/admin/drain").status == 200)
            #expect(try BoardAPI(port: nodes[0].port).get("/readyz").status == 503)
            #expect(try BoardAPI(port: nodes[1].port).get("/readyz").status == 200)
        }
    }
}
