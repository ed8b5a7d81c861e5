import CorkboardModel
import Foundation
import HubTestSupport
import TestSupport
import Testing

@testable import CorkboardServer

/// `--webhooks FILE` on a real `corkboard serve`: its endpoints deliver and are listed (not
/// deletable through the API), a reload on SIGHUP puts a changed file in force and keeps the
/// old endpoints when the new file is refused, and a refused file at start is exit 1 with one line.
@Suite(.threadsOfTheirOwn) struct WebhooksFileServeTests {
    static let secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"

    static func file(_ id: String, port: UInt16) -> String {
        #"{"webhooks":[{"id":"\#(id)","url":"http://127.0.0.1:\#(port)/hook","secret":"\#(secret)"}]}"#
    }

    static func listedIDs(_ api: BoardAPI) throws -> [String] {
        guard case .array(let entries)? = try api.get("/api/webhooks").object?["webhooks"] else { return [] }
        return entries.compactMap { $0.objectValue?["id"]?.stringValue }
    }

    @Test func theFilesEndpointsDeliverAndAreReloadedOnSIGHUP() throws {
        let receiver = try WebhookReceiver()
        let folder = try TemporaryDirectory("corkboard-webhooks-file")
        let path = try folder.write("webhooks.json", Self.file("crm", port: receiver.port))
        let server = try webhookServedChild(data: folder.path + "/data", extra: ["--webhooks", path])
        defer { server.stop() }
        let api = server.api

        #expect(try Self.listedIDs(api) == ["crm"])
        let entry = try #require(try api.get("/api/webhooks/crm").object)
        #expect(entry["source"] == "file")
        #expect(entry["id"] == "crm")
        #expect(entry["secret"] == nil, "a secret is never listed")
        #expect(try api.delete("/api/webhooks/crm").status == 409)
        #expect(try api.delete("/api/webhooks/nobody").status == 404)

        _ = try api.createBoard(Board(id: "filed", title: "Filed", collections: []))
        try #require(try api.perform("filed", OperationRequest(opId: "f-1", .addCollection(collection: "c", title: "C", before: nil))).status == 200)
        #expect(eventually(timeout: 30) { receiver.requests.contains { $0.id == "filed:1" } })
        let secret = try #require(WebhookSecret(Self.secret))
        for request in receiver.requests {
            let timestamp = try #require(Int64(request.headers["webhook-timestamp"] ?? ""))
            #expect(
                WebhookSignature.verify(
                    secret: secret, id: request.id, timestamp: timestamp, body: request.body, header: request.headers["webhook-signature"] ?? ""))
        }

        // A refused file changes nothing.
        _ = try folder.write("webhooks.json", #"{"webhooks":[{"id":"crm","url":"gopher://x"}]}"#)
        server.process.signal(SIGHUP)
        #expect(eventually(timeout: 10) { server.process.standardError.contains("webhooks not reloaded") })
        #expect(try Self.listedIDs(api) == ["crm"])
        // A good one is in force.
        _ = try folder.write("webhooks.json", Self.file("crm-2", port: receiver.port))
        server.process.signal(SIGHUP)
        #expect(try eventually(timeout: 10) { try Self.listedIDs(api) == ["crm-2"] })
    }

    @Test func aRefusedFileAtStartIsExit1WithOneLine() throws {
        let folder = try TemporaryDirectory("corkboard-webhooks-file")
        let path = try folder.write("webhooks.json", #"{"webhooks":[{"id":"a","url":"https://x.example/"}]}"#)
        let process = try ServerProcess(["serve", "--port", "0", "--data", folder.path + "/data", "--no-demo", "--webhooks", path])
        #expect(process.waitForExit() == 1)
        let lines = process.standardError.split(separator: "\n")
        #expect(lines.count == 1, "\(process.standardError)")
        #expect(lines.first?.contains("\"secret\" is required") == true, "\(process.standardError)")
    }
}
