import CorkboardModel
import CorkboardWire
import Foundation
import TestSupport
import Testing
import WebSocket

/// docs/protocol.md#7-error-rules: every kind of bad input from a joined client, and that none of it touches the
/// board or the other members. Bad messages over both harnesses; bad frames over sockets only.
@Suite(.threadsOfTheirOwn) struct HubBadInputTests {
    /// A bad text message from a joined client and what it gets. (Bad frames — binary, invalid
    /// UTF-8, over the size limit — are the WebSocket's to refuse: `BadFrame`, over sockets only.)
    struct BadInput: Sendable, CustomTestStringConvertible {
        enum Expected: Sendable {
            /// `{"type":"error","code":"invalid"}`, connection kept.
            case error
            /// `{"type":"rejected","opId":…,"code":"invalid"}`, connection kept.
            case rejected(opId: String)
        }

        let name: String
        let json: String
        let expected: Expected

        var testDescription: String { name }

        static func text(_ name: String, _ json: String, _ expected: Expected) -> BadInput {
            BadInput(name: name, json: json, expected: expected)
        }
    }

    static let longID = String(repeating: "x", count: 129)
    static let longUTF8ID = String(repeating: "é", count: 65) // 65 characters, 130 bytes

    static let inputs: [BadInput] = [
        .text("malformed JSON", #"{"type":"move","opId":"#, .error),
        .text("not JSON at all", "hello there", .error),
        .text("a JSON array", #"[{"type":"move"}]"#, .error),
        .text("a JSON string", #""move""#, .error),
        .text("no type", #"{"opId":"bad-1","sources":["i1"]}"#, .error),
        .text("type not a string", #"{"type":7}"#, .error),
        .text("unknown type", #"{"type":"teleport","opId":"bad-2"}"#, .error),
        .text("an operation without opId", #"{"type":"move","baseSeq":0,"sources":["i1"],"destination":{"collection":"done"}}"#, .error),
        .text("an opId that is not a string", #"{"type":"move","opId":17,"baseSeq":0,"sources":["i1"],"destination":{"collection":"done"}}"#, .error),
        .text(
            "sources not an array", #"{"type":"move","opId":"bad-3","baseSeq":0,"sources":"i1","destination":{"collection":"done"}}"#,
            .rejected(opId: "bad-3")),
        .text("destination missing", #"{"type":"move","opId":"bad-4","baseSeq":0,"sources":["i1"]}"#, .rejected(opId: "bad-4")),
        .text(
            "baseSeq not an integer", #"{"type":"move","opId":"bad-5","baseSeq":"0","sources":["i1"],"destination":{"collection":"done"}}"#,
            .rejected(opId: "bad-5")),
        .text(
            "baseSeq fractional", #"{"type":"move","opId":"bad-6","baseSeq":0.5,"sources":["i1"],"destination":{"collection":"done"}}"#,
            .rejected(opId: "bad-6")),
        .text(
            "a move without baseSeq", #"{"type":"move","opId":"bad-7","sources":["i1"],"destination":{"collection":"done"}}"#,
            .rejected(opId: "bad-7")),
        .text(
            "baseSeq above the seq", #"{"type":"move","opId":"bad-8","baseSeq":9,"sources":["i1"],"destination":{"collection":"done"}}"#,
            .rejected(opId: "bad-8")),
        .text("delete items not strings", #"{"type":"delete","opId":"bad-9","baseSeq":0,"items":[1,2]}"#, .rejected(opId: "bad-9")),
        .text("lock not a bool", #"{"type":"lock","opId":"bad-10","locked":"yes"}"#, .rejected(opId: "bad-10")),
        .text("update label not a string", #"{"type":"update","opId":"bad-11","baseSeq":0,"item":"i1","label":5}"#, .rejected(opId: "bad-11")),
        .text(
            "insert item without a label", #"{"type":"insert","opId":"bad-12","baseSeq":0,"items":[{"id":"n1"}],"destination":{"collection":"todo"}}"#,
            .rejected(opId: "bad-12")),
        .text(
            "insert an item id over 128 bytes",
            #"{"type":"insert","opId":"bad-13","baseSeq":0,"items":[{"id":"\#(longID)","label":"x"}],"destination":{"collection":"todo"}}"#,
            .rejected(opId: "bad-13")),
        .text(
            "insert an item id over 128 UTF-8 bytes",
            #"{"type":"insert","opId":"bad-14","baseSeq":0,"items":[{"id":"\#(longUTF8ID)","label":"x"}],"destination":{"collection":"todo"}}"#,
            .rejected(opId: "bad-14")),
        .text(
            "insert an empty id", #"{"type":"insert","opId":"bad-15","baseSeq":0,"items":[{"id":"","label":"x"}],"destination":{"collection":"todo"}}"#,
            .rejected(opId: "bad-15")),
        .text(
            "add a collection id over 128 bytes",
            #"{"type":"collection.add","opId":"bad-16","collection":{"id":"\#(longID)","title":"x"},"before":null}"#,
            .rejected(opId: "bad-16")),
        .text(
            "insert an id that exists", #"{"type":"insert","opId":"bad-17","baseSeq":0,"items":[{"id":"i4","label":"x"}],"destination":{"collection":"todo"}}"#,
            .rejected(opId: "bad-17")),
        .text(
            "offsets out of range", #"{"type":"move","opId":"bad-18","baseSeq":0,"collection":"todo","fromOffsets":[0],"toOffset":6}"#,
            .rejected(opId: "bad-18")),
    ]

    @Test(arguments: HubHarness.allCases, inputs)
    func badInputLeavesTheBoardAndTheOthersUntouched(_ harness: HubHarness, _ input: BadInput) throws {
        let hub = try harness.start()
        let watcher = try hub.join("Watcher")
        let sender = try hub.join("Sender")
        _ = try watcher.waitFor(type: "peer.joined")

        try sender.send(json: input.json)
        let answer = try sender.nextMessage()
        switch input.expected {
        case .error:
            #expect(answer.errorMessage?.code == .invalid, "got \(answer)")
        case .rejected(let opId):
            #expect(answer.rejection?.code == .invalid, "got \(answer)")
            #expect(answer.rejection?.opId == opId)
        }
        // The connection stays and works, and nothing else came for the sender.
        #expect(try sender.sync().isEmpty)
        // The others heard nothing; the board did not change.
        #expect(try watcher.sync().isEmpty)
        #expect(try hub.document() == hub.created)
        #expect(watcher.board == hub.board)
    }

    @Test(arguments: HubHarness.allCases)
    func anIDOfExactly128BytesIsFine(_ harness: HubHarness) throws {
        let hub = try harness.start()
        let ada = try hub.join("Ada")
        let id = String(repeating: "y", count: 128)
        try ada.commit(.insert(items: [Item(id: id, label: "long")], destination: Destination(collection: "todo")))
        try ada.commit(.move(sources: [id], destination: Destination(collection: "done", before: "i6")))
        #expect(try hub.expectAgreement([ada]).board.ids("done").first == id)
    }

    @Test(arguments: HubHarness.allCases)
    func badInputBetweenGoodOnesChangesNothingInBetween(_ harness: HubHarness) throws {
        let hub = try harness.start()
        let ada = try hub.join("Ada")
        let bob = try hub.join("Bob")
        let first = try ada.commit(.move(sources: ["i1"], destination: Destination(collection: "done")))
        try ada.send(json: "{nope")
        #expect(try ada.nextMessage().errorMessage?.code == .invalid)
        try ada.send(json: #"{"type":"move","opId":"bad","baseSeq":1,"sources":["i2"],"destination":7}"#)
        #expect(try ada.nextMessage().rejection?.code == .invalid)
        let second = try ada.commit(.move(sources: ["i2"], destination: Destination(collection: "done")))
        #expect(second.seq == first.seq + 1)
        #expect(try bob.waitFor(type: "committed") == .committed(first))
        #expect(try bob.nextMessage() == .committed(second))
        try hub.expectAgreement([ada, bob])
    }

    // MARK: Over sockets only: bad frames

    /// The size limit the tests set, so an oversize message is cheap to send.
    static let messageLimit = 4096

    struct BadFrame: Sendable, CustomTestStringConvertible {
        let name: String
        let opcode: WebSocketOpcode
        let payload: [UInt8]
        /// The code the server closes the WebSocket with.
        let closeCode: UInt16

        var testDescription: String { name }
    }

    /// Bad frames, which the WebSocket refuses before the hub sees them (bad text messages:
    /// `inputs`, over both harnesses).
    static let frames: [BadFrame] = [
        BadFrame(name: "binary message", opcode: .binary, payload: [0x7B, 0x7D, 0x00, 0xFF], closeCode: 1003),
        BadFrame(
            name: "invalid UTF-8", opcode: .text, payload: Array(#"{"type":"hello","name":""#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8),
            closeCode: 1007),
        BadFrame(
            name: "a message over the size limit", opcode: .text,
            payload: Array(#"{"type":"update","opId":"big","baseSeq":0,"item":"i1","label":"\#(String(repeating: "a", count: messageLimit))"}"#.utf8),
            closeCode: 1009),
    ]

    /// Socket only: frames are the WebSocket's; the hub never sees these.
    @Test(arguments: frames)
    func aBadFrameClosesTheSenderAndLeavesTheBoardAndTheOthersUntouched(_ input: BadFrame) throws {
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
