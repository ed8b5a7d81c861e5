import CorkboardModel
import CorkboardStore
import Foundation
import Logging
import Prometheus
import TestSupport
import Testing

@testable import CorkboardServer

/// One endpoint's worker against a memory store and a local receiver, for what the end-to-end
/// tests cannot time: the moment a board is deleted while a message of it is in flight.
@Suite(.threadsOfTheirOwn) struct WebhookWorkerTests {
    static func board(_ id: String) -> Board {
        Board(id: id, title: id, collections: [BoardCollection(id: "c", title: "C", items: [])])
    }

    /// The deletion drops the board's cursor, but the delivery in flight then writes it again;
    /// the worker, passing the `board.deleted` notice, resets it, so that the board created anew
    /// under the id starts from seq 1 for a worker that reads the store afresh (after a restart,
    /// or on the node taking the delivery over).
    @Test func aDeletedBoardsCursorWrittenAgainByALateDeliveryIsReset() throws {
        let receiver = try WebhookReceiver()
        let store = MemoryStore()
        try wait { store.createBoard(Self.board("x"), epoch: "e1", $0) }.get()
        try wait { store.startWebhookProgress(endpoint: "crm", boards: ["x": 0], $0) }.get()
        try wait { store.deleteBoard("x", $0) }.get()
        // What the message in flight wrote on its 2xx, after the deletion had dropped the cursor.
        try wait { store.advanceWebhookCursor(endpoint: "crm", stream: .board("x"), to: 7, $0) }.get()

        var logger = Logger(label: "webhook-worker-test")
        logger.logLevel = .critical
        let endpoint = WebhookEndpoint(
            id: "crm", url: try WebhookURL("http://127.0.0.1:\(receiver.port)/hook"),
            secret: try #require(WebhookSecret("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw")), boards: nil, origin: .file, createdAt: nil)
        let worker = WebhookWorker(
            endpoint: endpoint, store: store, sender: WebhookSender(), backoff: WebhookBackoff(base: 0.05, maximum: 0.1),
            metrics: WebhookMetrics(registry: PrometheusCollectorRegistry()), logger: logger, mayDeliver: { true },
            startProgress: { _, _, completion in completion(.success(())) })
        defer { worker.stop() }

        let passed = eventually(timeout: 15) {
            worker.tick()
            return receiver.requests.contains { $0.type == "board.deleted" }
                && (try? wait { store.webhookProgress(endpoint: "crm", $0) }.get().notices) != nil
                && (try? wait { store.webhookProgress(endpoint: "crm", $0) }.get().boards["x"]) == 0
        }
        #expect(passed, "the deleted board's cursor: \(String(describing: try? wait { store.webhookProgress(endpoint: "crm", $0) }.get()))")
    }
}
