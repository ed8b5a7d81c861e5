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

/// When the delivering node dies, another takes the lease over once it lapses and goes on from
/// the stored cursors: nothing is lost (a message in flight at the kill may come twice).
@Suite(.threadsOfTheirOwn) struct WebhookFailoverTests {
    static let delivered = #"corkboard_webhook_attempts_total{outcome="delivered"}"#

    @Test func anotherNodeDeliversOnceTheHolderIsKilled() throws {
        let receiver = try WebhookReceiver()
        let nodes = try ClusterNode.start(2, databaseURL: try PostgresCluster.shared().createDatabase(), extra: ["--webhook-retry-max", "1"])
        defer { for node in nodes { node.stop() } }
        let apis = nodes.map { BoardAPI(port: $0.port) }
        try #require(try apis[0].post("/api/webhooks", body: #"{"url":"http://127.0.0.1:\#(receiver.port)/hook"}"#).status == 201)
        _ = try apis[0].createBoard(Board(id: "shared", title: "Shared", collections: []))
        func commit(_ seqs: ClosedRange<Int>, on api: BoardAPI) throws {
            for seq in seqs {
                let request = OperationRequest(opId: "op-\(seq)", .addCollection(collection: "c\(seq)", title: "C", before: nil))
                try #require(try api.perform("shared", request).status == 200)
            }
        }
        try commit(1...10, on: apis[0])
        try #require(eventually(timeout: 30) { receiver.requests.contains { $0.id == "shared:10" } })
        // The holder is the node that delivered.
        let holder = try #require(try nodes.firstIndex { try $0.counter(Self.delivered) > 0 })
        let survivor = 1 - holder
        #expect(try nodes[survivor].counter(Self.delivered) == 0, "one node delivers")
        nodes[holder].kill()

        try commit(11...20, on: apis[survivor])
        let arrived = eventually(timeout: 60) { Set(receiver.requests.map(\.id)).isSuperset(of: (1...20).map { "shared:\($0)" }) }
        try #require(arrived, "the survivor took over: \(receiver.requests.map(\.id))")
        #expect(try nodes[survivor].counter(Self.delivered) > 0)
        var first: [String] = []
        for id in receiver.requests.map(\.id) where id.hasPrefix("shared:") && !first.contains(id) { first.append(id) }
        #expect(first == (1...20).map { "shared:\($0)" }, "in order")
    }
}
