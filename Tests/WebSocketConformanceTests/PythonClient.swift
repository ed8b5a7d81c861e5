import Foundation
import TestSupport

/// Runs one scenario of `python/websocket_client.py` (the Python `websockets` client) and
/// decodes what it observed; the assertions stay in Swift.
enum PythonClient {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("python/websocket_client.py").path

    /// The script bounds each of its own waits at 10 s; this caps the whole process.
    static let timeLimit: Double = 60

    static func run<Observation: Decodable>(_ scenario: String, against url: String, expecting: Observation.Type) throws -> Observation {
        let python = try PythonTools.websocketsPython()
        let outcome = try python.run([script, scenario, url], timeout: timeLimit)
        guard outcome.succeeded else {
            throw PythonTools.Failure("the Python client's \(scenario) scenario failed (exit \(outcome.status)):\n\(PythonTools.tail(outcome.standardError))")
        }
        return try JSONDecoder().decode(Observation.self, from: Data(outcome.standardOutput.utf8))
    }
}

struct EchoObservation: Decodable {
    struct Message: Decodable {
        let kind: String
        let size: Int
        let receivedKind: String
        let receivedSize: Int
        let identical: Bool
    }
    let messages: [Message]
    let extensions: [String]
}

struct SubprotocolObservation: Decodable {
    let selected: String?
    let selectedForUnknownOnly: String?
}

struct PingObservation: Decodable {
    let pongReceived: Bool
    let latencySeconds: Double
    let echoAfterPing: String
}

struct CloseObservation: Decodable {
    let closeCodeReceived: Int?
    let closeReasonReceived: String?
    let closeSeconds: Double
}
