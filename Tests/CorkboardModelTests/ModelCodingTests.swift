import CorkboardModel
import Foundation
import Testing

/// The model's JSON forms are the protocol's (the board object of docs/protocol.md#3-joining,
/// the `op` of docs/protocol.md#outcomes).
@Suite struct ModelCodingTests {
    private func encode(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    @Test(arguments: [
        (
            BoardOperation.move(sources: ["i3", "i4"], destination: Destination(collection: "done", before: "i9")),
            #"{"destination":{"before":"i9","collection":"done"},"sources":["i3","i4"],"type":"move"}"#
        ),
        (
            .move(sources: ["i3"], destination: Destination(collection: "done")),
            #"{"destination":{"before":null,"collection":"done"},"sources":["i3"],"type":"move"}"#
        ),
        (
            .insert(items: [Item(id: "i20", label: "New")], destination: Destination(collection: "todo")),
            #"{"destination":{"before":null,"collection":"todo"},"items":[{"id":"i20","label":"New"}],"type":"insert"}"#
        ),
        (.delete(items: ["i3"]), #"{"items":["i3"],"type":"delete"}"#),
        (.updateItem(item: "i3", label: "New text", data: .replace([:])), #"{"data":{},"item":"i3","label":"New text","type":"update"}"#),
        (.updateItem(item: "i3", label: nil, data: .remove), #"{"data":null,"item":"i3","type":"update"}"#),
        (.renameCollection(collection: "todo", title: "Backlog"), #"{"collection":"todo","title":"Backlog","type":"update"}"#),
        (.renameBoard(title: "Sprint 13"), #"{"title":"Sprint 13","type":"update"}"#),
        (
            .addCollection(collection: "later", title: "Later", before: nil),
            #"{"before":null,"collection":{"id":"later","title":"Later"},"type":"collection.add"}"#
        ),
        (.removeCollection(collection: "later"), #"{"collection":"later","type":"collection.remove"}"#),
        (.removeCollectionAndItems(collection: "later"), #"{"collection":"later","type":"collection.remove","withItems":true}"#),
        (.moveCollections(collections: ["done", "later"], before: "todo"), #"{"before":"todo","collections":["done","later"],"type":"collection.move"}"#),
        (.moveCollections(collections: ["done"], before: nil), #"{"before":null,"collections":["done"],"type":"collection.move"}"#),
        (.lock(locked: true), #"{"locked":true,"type":"lock"}"#),
    ])
    func operationsHaveTheSpecsShape(operation: BoardOperation, json: String) throws {
        #expect(try encode(operation) == json)
        #expect(try JSONDecoder().decode(BoardOperation.self, from: Data(json.utf8)) == operation)
    }

    @Test func boardsAndItemDataRoundTrip() throws {
        let data: JSONObject = ["n": .number(1.5), "list": .array([.null, .bool(false), .string("s")]), "o": .object(["k": .number(2)])]
        let board = Board(
            id: "demo", title: "Demo",
            collections: [
                BoardCollection(id: "todo", title: "To do", items: [Item(id: "i1", label: "Spec"), Item(id: "i2", label: "Data", data: data)])
            ])
        let json = try encode(board)
        #expect(json.hasPrefix(#"{"collections":[{"id":"todo","items":[{"id":"i1","label":"Spec"},"#))
        #expect(try JSONDecoder().decode(Board.self, from: Data(json.utf8)) == board)
        let event = CommittedEvent(seq: 43, opId: "k3f9x-17", client: "c7", op: .lock(locked: false), adjusted: true)
        #expect(try JSONDecoder().decode(CommittedEvent.self, from: try JSONEncoder().encode(event)) == event)
    }
}
