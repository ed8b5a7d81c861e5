import CorkboardModel
import CorkboardWire
import Foundation
import TestSupport
import Testing
import WebSocket

/// docs/protocol.md#7-error-rules: bad frames from a joined client, and that none of it touches the
/// board or the other members.
@Suite(.threadsOfTheirOwn) struct HubBadInputTests {
    /// The size limit the tests set, so an oversize message is cheap to send.
    static let messageLimit = 4096

    struct BadInput: Sendable, CustomTestStringConvertible {
        let name: String
        let opcode: WebSocketOpcode
        let payload: [UInt8]
        /// The code the server closes the WebSocket with.
        let closeCode: UInt16

        var testDescription: String { name }
    }

    /// Bad frames, which the WebSocket refuses before the hub sees them (bad text messages:
    /// the hub's HubBadInputTests, in-process).
    static let inputs: [BadInput] = [
        BadInput(name: "binary message", opcode: .binary, payload: [0x7B, 0x7D, 0x00, 0xFF], closeCode: 1003),
        BadInput(
            name: "invalid UTF-8", opcode: .text, payload: Array(#"{"type":"hello","name":""#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8),
            closeCode: 1007),
        BadInput(
            name: "a message over the size limit", opcode: .text,
            payload: Array(#"{"type":"update","opId":"big","baseSeq":0,"item":"i1","label":"\#(String(repeating: "a", count: messageLimit))"}"#.utf8),
            closeCode: 1009),
    ]

    @Test(arguments: inputs)
    func aBadFrameClosesTheSenderAndLeavesTheBoardAndTheOthersUntouched(_ input: BadInput) throws {
        let fixture = try HubFixture { $0.webSocket.maxMessageSize = Self.messageLimit }
        let watcher = try fixture.join("Watcher")
        let sender = try fixture.join("Sender")
        _ = try watcher.waitFor(type: "peer.joined")

        try sender.ws.send(input.opcode, input.payload)
        #expect(try sender.expectClose()?.rawValue == input.closeCode)
        #expect(try watcher.nextMessage() == .peerLeft(client: sender.clientID))
        // The others heard nothing; the board did not change.
        #expect(try watcher.sync().isEmpty)
        #expect(try fixture.document() == fixture.created)
        #expect(watcher.board == fixture.board)
    }
}
