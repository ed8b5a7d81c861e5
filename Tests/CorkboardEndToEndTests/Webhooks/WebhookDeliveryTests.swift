import CorkboardModel
import CorkboardWire
import Foundation
import HubTestSupport
import TestSupport
import Testing

@testable import CorkboardServer

/// Issue #35's webhooks, end to end: a real `corkboard serve` delivers to a local receiver
/// every committed event, at least once, in seq order per board, signed, through a receiver
/// that fails and then is down for a while, and across a SIGKILL of the server
/// (docs/integrations.md#webhooks).
@Suite(.threadsOfTheirOwn) struct WebhookDeliveryTests {
    static let boards = ["alpha", "beta"]

    @Test func everyEventArrivesSignedAndInOrderThroughOutagesAndASIGKILL() throws {
        let receiver = try WebhookReceiver()
        let data = try TemporaryDirectory("corkboard-webhooks")
        var server = try webhookServedChild(data: data.path)
        let made = try server.api.post("/api/webhooks", body: #"{"url":"http://127.0.0.1:\#(receiver.port)/hook"}"#)
        try #require(made.status == 201, "\(made)")
        let secretText = try #require(made.object?["secret"]?.stringValue)
        let secret = try #require(WebhookSecret(secretText))
        let id = try #require(made.object?["id"]?.stringValue)

        var committed: [String: Int] = [:]
        for board in Self.boards {
            _ = try server.api.createBoard(Board(id: board, title: board, collections: []))
            committed[board] = 0
        }
        func commit(_ count: Int) throws {
            for board in Self.boards {
                for _ in 0..<count {
                    let seq = committed[board, default: 0] + 1
                    let request = OperationRequest(opId: "\(board)-\(seq)", .addCollection(collection: "c\(seq)", title: "C\(seq)", before: nil))
                    let answer = try server.api.perform(board, request)
                    try #require(answer.status == 200, "\(answer)")
                    committed[board] = seq
                }
            }
        }

        try commit(4)
        // The receiver fails: the same messages go again, after a backoff (at most a second here).
        receiver.fail(with: 503)
        try commit(4)
        try #require(eventually(timeout: 30) { receiver.requests.filter { $0.answered == 503 }.count >= 3 }, "failed attempts are retried")
        // Then it is down: the port refuses connections.
        receiver.stop()
        try commit(4)
        let listed = try #require(
            try eventuallyValue(timeout: 30) {
                let entry = try server.api.get("/api/webhooks/\(id)").object
                return (entry?["lastError"]?.stringValue != nil && entry?["backlog"]?.webhookTestNumber ?? 0 > 0) ? entry : nil
            }, "the listing tells of the failures")
        #expect(listed["failures"]?.webhookTestNumber ?? 0 >= 1)

        // Killed while deliveries wait; started again on the same data, the cursors resume.
        try server.crash()
        server = try webhookServedChild(data: data.path)
        receiver.fail(with: nil)
        try receiver.start()
        try commit(4)

        let total = committed
        let complete = eventually(timeout: 60) {
            let seen = Self.seqsSeen(receiver.requests)
            return Self.boards.allSatisfy { board in Set(seen[board] ?? []).isSuperset(of: 1...(total[board] ?? 0)) }
        }
        let requests = receiver.requests
        try #require(complete, "every event arrived: \(Self.seqsSeen(requests))")

        // In seq order per board, by first arrival; each seq at least once.
        for board in Self.boards {
            var first: [Int] = []
            for seq in Self.seqsSeen(requests)[board] ?? [] where !first.contains(seq) { first.append(seq) }
            #expect(first == Array(1...(total[board] ?? 0)), "\(board)")
        }
        // Every request signed, with the event as the log gives it.
        for request in requests {
            let timestamp = try #require(Int64(request.headers["webhook-timestamp"] ?? ""))
            #expect(abs(Double(timestamp) - Date().timeIntervalSince1970) < 300)
            #expect(
                WebhookSignature.verify(
                    secret: secret, id: request.id, timestamp: timestamp, body: request.body, header: request.headers["webhook-signature"] ?? ""),
                "\(request.id)")
        }
        let log = try server.api.events("alpha")
        let delivered = try #require(requests.first { $0.id == "alpha:3" && $0.answered == 204 })
        #expect(delivered.type == "board.committed")
        let expected = try #require(try JSONSerialization.jsonObject(with: WireFormat.encode(ServerMessage.committed(log[2]))) as? NSDictionary)
        let given = try #require(delivered.data?.filter { $0.key != "board" })
        #expect(NSDictionary(dictionary: given) == expected)
        #expect(delivered.data?["board"] as? String == "alpha")
        // Boards created are told too, before their events.
        for board in Self.boards {
            let created = requests.firstIndex { $0.type == "board.created" && $0.data?["board"] as? String == board }
            let firstEvent = requests.firstIndex { $0.id == "\(board):1" }
            #expect(created != nil && created! < firstEvent!, "\(board)")
        }
        // The documentation's verification snippets accept every delivery.
        try Self.expectSnippetsVerify(receiver, secret: secretText)

        #expect(
            try eventually(timeout: 10) {
                try server.api.get("/api/webhooks").object?["webhooks"]?.webhookTestArray?.first?.objectValue?["backlog"] == .number(0)
            })
        server.stop()
    }

    /// The seqs of each board's `board.committed` deliveries, in arrival order.
    static func seqsSeen(_ requests: [WebhookReceiver.Received]) -> [String: [Int]] {
        var seen: [String: [Int]] = [:]
        for request in requests where request.answered == 204 && request.type == "board.committed" {
            let parts = request.id.split(separator: ":")
            guard parts.count == 2, let seq = Int(parts[1]) else { continue }
            seen[String(parts[0]), default: []].append(seq)
        }
        return seen
    }

    /// `examples/webhooks/verify.py` and `verify.mjs`, as docs/integrations.md shows them, run
    /// over every captured delivery.
    static func expectSnippetsVerify(_ receiver: WebhookReceiver, secret: String) throws {
        let folder = try TemporaryDirectory("corkboard-webhook-snippets")
        let captured = try folder.write("captured.jsonl", try receiver.capturedLines())
        let count = receiver.requests.count
        let examples = PythonTools.packageRoot + "/examples/webhooks"
        var environment = ProcessInfo.processInfo.environment
        environment["WEBHOOK_SECRET"] = secret
        for command in ["python3 '\(examples)/verify.py'", "node '\(examples)/verify.mjs'"] {
            let outcome = try PythonTools.run("/bin/sh", ["-c", "\(command) < '\(captured)'"], environment: environment, timeout: 60)
            #expect(outcome.succeeded, "\(command): \(outcome.standardError)")
            #expect(outcome.standardOutput.contains("verified \(count)"), "\(command): \(outcome.standardOutput)")
        }
    }
}

/// `corkboard serve` on a data folder, with webhook retries capped at a second.
func webhookServedChild(data: String, extra: [String] = []) throws -> ServedChild {
    try ServedChild(data: data, options: ["--log-level", "warning", "--op-rate", "0", "--webhook-retry-max", "1"] + extra)
}

/// The value `produce` gives once it gives one, or nil after `timeout` seconds.
func eventuallyValue<T>(timeout: Double, _ produce: () throws -> T?) rethrows -> T? {
    var value: T?
    _ = try eventually(timeout: timeout) {
        value = try produce()
        return value != nil
    }
    return value
}

extension JSONValue {
    fileprivate var webhookTestNumber: Double? {
        if case .number(let value) = self { return value }
        return nil
    }

    fileprivate var webhookTestArray: [JSONValue]? {
        if case .array(let values) = self { return values }
        return nil
    }
}
