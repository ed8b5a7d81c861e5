import CorkboardModel
import Foundation
import Testing

@testable import CorkboardWire

/// `JSONWriter` writes the server's frequent messages by hand: byte for byte what the
/// `Codable` encoding through `JSONEncoder` (sorted keys, slashes unescaped) gives.
@Suite struct JSONWriterTests {
    private func encoderBytes(_ value: some Encodable) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(value))
    }

    private func written(_ message: ServerMessage) throws -> String {
        String(decoding: try #require(message.writtenJSON), as: UTF8.self)
    }

    /// Text that needs every kind of escape, and some that needs none.
    static let awkward = "a \"quoted\" back\\slash / tab\t new\nline \u{1} \u{1F} é 中 😀 \u{7F}"

    static let data: JSONObject = [
        "colour": .string("red"), "size": .number(3), "ratio": .number(0.25), "big": .number(1e21),
        "tags": .array([.string("a"), .null, .bool(false)]),
        "nested": .object(["z": .number(-7), "a": .object([:])]), "text": .string(awkward),
    ]

    static let operations: [BoardOperation] = [
        .move(sources: ["a", "b"], destination: Destination(collection: "doing", before: "c")),
        .move(sources: [awkward], destination: Destination(collection: "done")),
        .insert(
            items: [Item(id: "n1", label: "One"), Item(id: "n2", label: awkward, data: data)],
            destination: Destination(collection: "todo")),
        .delete(items: ["a", awkward]),
        .updateItem(item: "a", label: "Renamed", data: .unchanged),
        .updateItem(item: "a", label: nil, data: .replace(data)),
        .updateItem(item: "a", label: nil, data: .remove),
        .renameCollection(collection: "todo", title: awkward),
        .addCollection(collection: "later", title: "Later", before: "done"),
        .addCollection(collection: "last", title: "Last", before: nil),
        .removeCollection(collection: "later"),
        .removeCollectionAndItems(collection: awkward),
        .moveCollections(collections: ["done", awkward], before: "todo"),
        .moveCollections(collections: ["todo"], before: nil),
        .lock(locked: true),
    ]

    static var messages: [ServerMessage] {
        operations.enumerated().map { index, operation in
            // Every third without `at` and `by` (an event stored before they were kept).
            .committed(
                CommittedEvent(
                    seq: index + 1, opId: "op-\(index)", client: "c\(index)", op: operation, adjusted: index % 2 == 0,
                    at: index % 3 == 0 ? nil : 1_795_575_010_000 + index, by: index % 3 == 0 ? nil : index % 2 == 0 ? awkward : "user-\(index)"))
        } + [
            .noop(Noop(opId: "op-n", seq: 12)),
            .peerJoined(client: "c1", name: awkward),
            .peerLeft(client: "c1"),
            .drag(DragUpdate(client: "c1", name: "Ada", items: ["a", "b"], over: DragTarget(collection: "doing", index: 2, before: "c"))),
            .drag(DragUpdate(client: "c1", name: "Ada", items: ["a"], over: DragTarget(collection: "doing", index: 0, before: nil))),
            .drag(DragUpdate(client: "c1", name: "Ada", items: ["a"], over: nil)),
            .dragOver(client: "c1", over: DragTarget(collection: "doing", index: 2, before: "c")),
            .dragOver(client: "c1", over: DragTarget(collection: "doing", index: 0, before: nil)),
            .drag(DragUpdate(client: "c1", name: "Ada", items: [], collections: ["todo", "done"], over: nil)),
            .drag(DragUpdate(client: "c1", name: "Ada", items: [], collections: ["todo"], over: DragTarget(collection: nil, index: 1, before: "done"))),
            .dragOver(client: "c1", over: DragTarget(collection: nil, index: 2, before: nil)),
            .dragCleared(client: "c1", reason: .timeout),
            .dragCleared(client: "c1", reason: .expired),
            .editing(client: "c1", name: awkward, item: "a"),
            .editing(client: "c1", name: "Ada", item: nil),
            .drags([
                .started(DragUpdate(client: "c1", name: awkward, items: ["a", awkward], over: nil)),
                .moved(client: "c2", over: DragTarget(collection: "doing", index: 1, before: nil)),
                .started(DragUpdate(client: "c3", name: "Cy", items: ["b"], over: DragTarget(collection: "todo", index: 0, before: "a"))),
                .cleared(client: "c1", reason: .drop),
            ]),
            .drags([.cleared(client: "c1", reason: .left)]),
            .rejected(Rejected(opId: "op-1", code: .invalid, message: awkward)),
            .rejected(.dragStartBusy(holder: "c2")),
            .rejected(Rejected(opId: "op-2", code: .rateLimited, message: nil)),
            .error(ErrorMessage(code: .forbidden, message: "no")),
            .pong(id: awkward),
        ]
    }

    @Test(arguments: messages)
    func eachMessageIsTheEncodersBytes(message: ServerMessage) throws {
        let expected = String(decoding: try encoderBytes(message), as: UTF8.self)
        #expect(try written(message) == expected)
        #expect(try WireFormat.decodeServerMessage(Data(try written(message).utf8)) == message)
    }

    @Test func aWelcomeIsLeftToTheEncoder() throws {
        let welcome = ServerMessage.welcome(Welcome(client: "c1", role: .editor, epoch: "e", seq: 0, resumed: true, board: nil, peers: []))
        #expect(welcome.writtenJSON == nil)
        #expect(Array(try WireFormat.encode(welcome)) == (try encoderBytes(welcome)))
    }

    @Test func randomDataIsTheEncodersBytes() throws {
        var random = SplitMix64(seed: 29)
        for index in 0..<300 {
            guard case .object(let data) = JSONValue.object(["v": JSONParserTests.randomValue(depth: 0, &random)]) else { continue }
            let message = ServerMessage.committed(
                CommittedEvent(
                    seq: index, opId: "o", client: "c", op: .updateItem(item: "i", label: nil, data: .replace(data)), adjusted: false))
            #expect(try written(message) == String(decoding: try encoderBytes(message), as: UTF8.self))
        }
    }

    @Test func numbersAreWrittenAsJSONEncoderWritesThem() throws {
        var writer = JSONWriter()
        let numbers: [Double] = [0, 1, -1, 42, 0.5, -0.25, 1e15, 1e21, 123456.789, 9_007_199_254_740_991, 1e-7]
        writer.openArray()
        for number in numbers { writer.number(number) }
        writer.closeArray()
        let expected = try encoderBytes(numbers)
        #expect(String(decoding: writer.bytes, as: UTF8.self) == String(decoding: expected, as: UTF8.self))
    }
}
