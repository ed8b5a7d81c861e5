import CorkboardHub
import CorkboardModel
import CorkboardWire
import Foundation
import HTTP

/// The answer to an operation over HTTP (docs/protocol.md#8-http-api): the outcome message a
/// WebSocket member gets, with the status the protocol gives it. A refusal keeps its
/// `type`, `opId` and `code`, which clients read, and carries the `error` every error body has
/// (docs/protocol.md#conventions), so one reader serves every failure of the API.
enum OperationAnswer {
    static func response(_ message: ServerMessage) -> HTTPResponse {
        let status = BoardAPI.status(of: message)
        guard status != .ok else { return BoardAPI.json(status, message) }
        do {
            guard case .object(var fields) = try StrictJSON.parse(Data(try WireFormat.encode(message))) else {
                return .error(.internalServerError, "an outcome is encoded as an object")
            }
            fields["error"] = .string(status.reason.lowercased())
            return BoardAPI.json(status, JSONValue.object(fields))
        } catch {
            return .error(.internalServerError, "the answer could not be encoded: \(error)")
        }
    }
}
