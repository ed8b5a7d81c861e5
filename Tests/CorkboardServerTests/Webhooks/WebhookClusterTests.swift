import CorkboardModel
import CorkboardWire
import Foundation
import HubTestSupport
import TestSupport
import Testing

@testable import CorkboardServer

/// Two nodes sharing a PostgreSQL store deliver each event once between them: one holds the
/// delivery lease and delivers, whichever node the events were committed on
/// (docs/integrations.md#in-a-cluster).
@Suite(.threadsOfTheirOwn) struct WebhookClusterTests {
    @Test func twoNodesDeliverEachEventOnceBetweenThem() throws {
        let receiver = try WebhookReceiver()
        let nodes = try ClusterNode.start(2, databaseURL: try PostgresCluster.shared().createDatabase(), extra: ["--webhook-retry-max", "1"])
        defer { for node in nodes { node.stop() } }
        let apis = nodes.map { BoardAPI(port: $0.port) }
        let made = try apis[1].post("/api/webhooks", body: #"{"url":"http://127.0.0.1:\#(receiver.port)/hook"}"#)
        try #require(made.status == 201, "\(made)")
        let secretText = try #require(made.object?["secret"]?.stringValue)
        let secret = try #require(WebhookSecret(secretText))
        // Listed by both nodes.
        for api in apis { #expect(try api.get("/api/webhooks").status == 200) }

        _ = try apis[1].createBoard(Board(id: "shared", title: "Shared", collections: []))
        let count = 30
        for seq in 1...count {
            // Committed on either node.
            let request = OperationRequest(opId: "op-\(seq)", .addCollection(collection: "c\(seq)", title: "C", before: nil))
            try #require(try apis[seq % 2].perform("shared", request).status == 200)
        }
        let arrived = eventually(timeout: 60) {
            Set(receiver.requests.map(\.id)).isSuperset(of: (1...count).map { "shared:\($0)" })
        }
        let requests = receiver.requests
        try #require(arrived, "every event arrived: \(requests.map(\.id))")
        let ids = requests.map(\.id)
        #expect(ids.filter { $0.hasPrefix("shared:") } == (1...count).map { "shared:\($0)" }, "each once, in order")
        #expect(requests.filter { $0.type == "board.created" }.count == 1)
        for request in requests {
            let timestamp = try #require(Int64(request.headers["webhook-timestamp"] ?? ""))
            #expect(
                WebhookSignature.verify(
                    secret: secret, id: request.id, timestamp: timestamp, body: request.body, header: request.headers["webhook-signature"] ?? ""))
        }
    }
}
