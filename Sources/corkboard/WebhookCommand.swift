import ArgumentParser
import CorkboardServer
import Foundation

/// `corkboard webhook test|sign`: checks a receiver before pointing the server at it
/// (docs/integrations.md#trying-a-receiver).
struct WebhookCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "webhook", abstract: "Try a webhook receiver.", subcommands: [WebhookTestCommand.self, WebhookSignCommand.self])
}

struct WebhookTestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test",
        abstract:
            "Send one signed webhook.test message to a receiver as the server would, print its status; exit 1 unless it answers 2xx."
    )

    @Option(help: "The receiver's http or https URL.")
    var url: String

    @Option(help: "The endpoint's secret, whsec_ and base64 (env: CORKBOARD_WEBHOOK_SECRET).")
    var secret: String?

    @Option(help: "The board the sample message names.")
    var board = "demo"

    @Option(help: "Seconds to wait for the answer.")
    var timeout = 10.0

    func run() throws {
        let target: WebhookURL
        do { target = try WebhookURL(url) } catch { throw ValidationError("--url: \(error)") }
        guard let text = secret ?? ProcessInfo.processInfo.environment["CORKBOARD_WEBHOOK_SECRET"] else {
            throw ValidationError("--secret is required (or CORKBOARD_WEBHOOK_SECRET)")
        }
        guard let key = WebhookSecret(text) else { throw ValidationError("--secret is \(WebhookSecret.shape)") }
        let message = WebhookMessage.test(board: board)
        switch WebhookSender.sendAndWait(message, to: target, secret: key, timeout: timeout) {
        case .success(let status) where (200...299).contains(status):
            print("\(status): delivered \(message.id) to \(url)")
        case .success(let status):
            FileHandle.standardError.write(Data("corkboard: error: the receiver answered \(status) to \(message.id)\n".utf8))
            throw ExitCode.failure
        case .failure(let error):
            FileHandle.standardError.write(Data("corkboard: error: no answer from \(url): \(error)\n".utf8))
            throw ExitCode.failure
        }
    }
}

struct WebhookSignCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sign", abstract: "Print the webhook-signature header of a body (read from standard input) as the server signs it.")

    @Option(help: "The endpoint's secret, whsec_ and base64 (env: CORKBOARD_WEBHOOK_SECRET).")
    var secret: String?

    @Option(help: "The message's webhook-id.")
    var id: String

    @Option(help: "The message's webhook-timestamp (Unix seconds).")
    var timestamp: Int64

    func run() throws {
        guard let text = secret ?? ProcessInfo.processInfo.environment["CORKBOARD_WEBHOOK_SECRET"], let key = WebhookSecret(text) else {
            throw ValidationError("--secret is \(WebhookSecret.shape)")
        }
        let body = Array(FileHandle.standardInput.readDataToEndOfFile())
        print(WebhookSignature.sign(secret: key, id: id, timestamp: timestamp, body: body))
    }
}
