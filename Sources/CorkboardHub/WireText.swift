import CorkboardWire
import Foundation

/// Server messages as JSON text, encoded once per message.
enum WireText {
    static func encode(_ message: ServerMessage) -> String {
        do {
            return try WireFormat.text(message)
        } catch {
            // Only a non-finite number fails to encode, and decoded JSON has none; if it
            // ever happens the client hears why rather than nothing.
            assertionFailure("cannot encode \(message.typeName): \(error)")
            return #"{"type":"error","code":"internal","message":"the server could not encode a message"}"#
        }
    }
}

extension MemberLink {
    /// Sends one server message to this member alone (for many, encode once and `broadcast`).
    func send(_ message: ServerMessage) {
        send(text: WireText.encode(message))
    }

    /// `{"type":"error","code":"invalid",...}`: a message the server cannot use.
    func send(invalid message: String) {
        send(.error(ErrorMessage(code: .invalid, message: message)))
    }
}
