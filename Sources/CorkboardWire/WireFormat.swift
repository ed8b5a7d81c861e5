import CorkboardModel
import Foundation

/// What the server makes of one client text message (docs/protocol.md#7-error-rules).
public enum DecodedClientMessage: Sendable, Hashable {
    case message(ClientMessage)
    /// Malformed JSON, an unknown type, or a bad field without a usable opId: answer
    /// this `error` (code `invalid`); the connection stays open, nothing changes.
    case error(ErrorMessage)
    /// An operation with a string opId that failed validation: answer this `rejected`
    /// (code `invalid`, that opId).
    case rejected(Rejected)
}

/// Encoding and decoding of wire messages. Encoding is deterministic (sorted keys), so
/// one event is encoded once and the same bytes go to every member.
public enum WireFormat {
    private static func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    public static func encode(_ message: ServerMessage) throws -> Data {
        Data(try bytes(message))
    }

    /// A server message as the text of a WebSocket message, encoded once for all its members.
    public static func text(_ message: ServerMessage) throws -> String {
        String(decoding: try bytes(message), as: UTF8.self)
    }

    /// Written by `JSONWriter`; a `welcome` through `JSONEncoder`.
    private static func bytes(_ message: ServerMessage) throws -> [UInt8] {
        try message.writtenJSON ?? Array(makeEncoder().encode(message))
    }

    public static func encode(_ message: ClientMessage) throws -> Data {
        try makeEncoder().encode(JSONValue.object(message.json))
    }

    /// Any Encodable value in the same deterministic form (HTTP bodies, snapshots).
    public static func encode(_ value: some Encodable) throws -> Data {
        try makeEncoder().encode(value)
    }

    /// For clients: a server message, or a `DecodingError`.
    public static func decodeServerMessage(_ data: Data) throws -> ServerMessage {
        try JSONDecoder().decode(ServerMessage.self, from: data)
    }

    /// For the server: one client message, classified by docs/protocol.md#7-error-rules.
    /// Field values are checked for shape here; ids, offsets and the rest of an
    /// operation's validity are the resolver's (which rejects them `invalid` too).
    public static func decodeClientMessage(_ data: Data) -> DecodedClientMessage {
        let value: JSONValue
        do throws(JSONParser.Failure) {
            value = try JSONParser.parse(data)
        } catch {
            // Too deep is still well-formed: an operation in it gets its `rejected`.
            guard case .nestedTooDeep(.object(let outline)) = error else {
                return .error(ErrorMessage(code: .invalid, message: error.message))
            }
            return refusal(of: outline, error.message)
        }
        guard case .object(let object) = value else {
            return .error(ErrorMessage(code: .invalid, message: "a message must be a JSON object"))
        }
        do throws(FieldError) {
            return .message(try ClientMessage(json: object))
        } catch {
            return refusal(of: object, error.message)
        }
    }

    /// An unusable message: `rejected` when it is an operation with a string opId, else `error`.
    private static func refusal(of object: JSONObject, _ message: String) -> DecodedClientMessage {
        if case .string(let type) = object["type"], ClientMessage.operationTypes.contains(type),
            case .string(let opId) = object["opId"]
        {
            return .rejected(Rejected(opId: opId, code: .invalid, message: message))
        }
        return .error(ErrorMessage(code: .invalid, message: message))
    }
}
