import CorkboardWire
import Foundation
import Testing

/// `hello`'s `presence` (docs/protocol.md#compact-drags): `"compact"` asks for compact drag
/// batches; absent, `null`, `"full"` or a form this server does not know keep the long form;
/// anything but a string is an ill-typed field.
struct HelloPresenceTests {
    static func hello(_ presence: String) -> DecodedClientMessage {
        WireFormat.decodeClientMessage(Data(#"{"type":"hello","board":"demo","name":"Ada"\#(presence)}"#.utf8))
    }

    @Test(arguments: [
        (#","presence":"compact""#, PresenceForm.compact), ("", .full), (#","presence":null"#, .full),
        (#","presence":"full""#, .full), (#","presence":"numbered-v2""#, .full),
    ])
    func theFormAsked(_ field: String, _ form: PresenceForm) {
        #expect(Self.hello(field) == .message(.hello(Hello(board: "demo", name: "Ada", presence: form))))
    }

    @Test(arguments: [#","presence":true"#, #","presence":1"#, #","presence":["compact"]"#])
    func anIllTypedPresenceIsInvalid(_ field: String) {
        let refusal: ErrorMessage? = if case .error(let error) = Self.hello(field) { error } else { nil }
        #expect(refusal?.code == .invalid, "not refused: \(Self.hello(field))")
    }

    @Test func aClientSaysItOnlyWhenItAsksForCompact() throws {
        let compact = String(decoding: try WireFormat.encode(ClientMessage.hello(Hello(board: "b", name: "n", presence: .compact))), as: UTF8.self)
        let full = String(decoding: try WireFormat.encode(ClientMessage.hello(Hello(board: "b", name: "n"))), as: UTF8.self)
        #expect(compact == #"{"board":"b","name":"n","presence":"compact","type":"hello"}"#)
        #expect(full == #"{"board":"b","name":"n","type":"hello"}"#)
    }
}
