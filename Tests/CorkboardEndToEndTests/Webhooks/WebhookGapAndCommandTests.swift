import CorkboardModel
import Foundation
import HubTestSupport
import TestSupport
import Testing

@testable import CorkboardServer

/// What the end-to-end test does not reach: an endpoint that fell behind the kept log is told
/// what it missed (`board.skipped`), and `corkboard webhook test|sign`.
@Suite(.threadsOfTheirOwn) struct WebhookGapAndCommandTests {
    static let secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"

    @Test func anEndpointBehindTheKeptLogGetsBoardSkippedThenTheRest() throws {
        let receiver = try WebhookReceiver()
        receiver.fail(with: 503)
        let server = try TestServer {
            $0.hub.historyCapacity = 10
            $0.webhooks.backoff = WebhookBackoff(base: 1, maximum: 1)
        }
        let api = BoardAPI(port: server.port)
        try #require(try api.post("/api/webhooks", body: #"{"url":"http://127.0.0.1:\#(receiver.port)/hook"}"#).status == 201)
        _ = try api.createBoard(Board(id: "lag", title: "Lag", collections: []))
        let count = 60
        for seq in 1...count {
            let request = OperationRequest(opId: "lag-\(seq)", .addCollection(collection: "c\(seq)", title: "C", before: nil))
            try #require(try api.perform("lag", request).status == 200)
        }
        // The log keeps the last 10 to 20 events: the endpoint, stuck on the board's creation, is far behind.
        try #require(eventually(timeout: 30) { receiver.requests.count >= 2 }, "the failing receiver is tried")
        // The store has folded the log (a store may fold after answering the append).
        try #require(try eventually(timeout: 30) { try api.get("/api/boards/lag/ops?since=0").status == 410 }, "the log was folded")
        receiver.fail(with: nil)
        try #require(eventually(timeout: 30) { receiver.requests.contains { $0.id == "lag:\(count)" && $0.answered == 204 } })
        let accepted = receiver.requests.filter { $0.answered == 204 }
        let skipped = try #require(accepted.first { $0.type == "board.skipped" })
        let through = try #require(skipped.data?["through"] as? Int)
        #expect(skipped.data?["from"] as? Int == 1)
        #expect(skipped.data?["board"] as? String == "lag")
        #expect(through >= count - 20 && through < count, "the events before the kept log: \(through)")
        let after = accepted.filter { $0.type == "board.committed" }.compactMap { Int($0.id.split(separator: ":").last ?? "") }
        #expect(after == Array((through + 1)...count), "the rest follows in order")
        let order = accepted.map { $0.type ?? "" }
        #expect(order.firstIndex(of: "board.created")! < order.firstIndex(of: "board.skipped")!)
    }

    @Test func webhookTestSendsOneSignedMessageAndFailsOnARefusal() throws {
        let receiver = try WebhookReceiver()
        let test = ["webhook", "test", "--url", "http://127.0.0.1:\(receiver.port)/hook", "--secret", Self.secret, "--board", "demo"]
        let accepted = try ServerProcess(test)
        #expect(accepted.waitForExit() == 0, "\(accepted.standardError)")
        #expect(accepted.standardOutput.hasPrefix("204: delivered test-"), "\(accepted.standardOutput)")
        let request = try #require(receiver.requests.first)
        #expect(request.type == "webhook.test" && request.data?["board"] as? String == "demo")
        let timestamp = try #require(Int64(request.headers["webhook-timestamp"] ?? ""))
        #expect(
            WebhookSignature.verify(
                secret: try #require(WebhookSecret(Self.secret)), id: request.id, timestamp: timestamp, body: request.body,
                header: request.headers["webhook-signature"] ?? ""))

        receiver.fail(with: 500)
        let refused = try ServerProcess(test)
        #expect(refused.waitForExit() == 1)
        #expect(refused.standardError.contains("answered 500"), "\(refused.standardError)")
        receiver.stop()
        let unreachable = try ServerProcess(test)
        #expect(unreachable.waitForExit() == 1)
        #expect(unreachable.standardError.contains("no answer"), "\(unreachable.standardError)")
    }

    @Test func webhookSignPrintsTheSpecificationsTestVector() throws {
        let outcome = try PythonTools.run(
            "/bin/sh",
            [
                "-c",
                #"printf '%s' '{"test": 2432232314}' | "$0" webhook sign --secret "$1" --id msg_p5jXN8AQM9LWM0D4loKWxJek --timestamp 1614265330"#,
                ServerProcess.executablePath, Self.secret,
            ], timeout: 30)
        #expect(outcome.succeeded, "\(outcome.standardError)")
        #expect(outcome.standardOutput == "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=\n")
    }
}
