import CorkboardModel
import CorkboardWire
import Foundation
import Testing

/// `drags` (docs/protocol.md#6-presence-drag-state): each change is the single drag message
/// it stands for, and nothing else may hide in a batch.
struct DragBatchWireTests {
    @Test func eachChangeIsItsSingleMessage() throws {
        let text = #"""
            {"type":"drags","changes":[{"type":"drag","client":"c7","name":"Ada","items":["card-bot"],"over":null},
            {"type":"drag.over","client":"c7","over":{"collection":"done","index":2,"before":null}},
            {"type":"drag.cleared","client":"c7","reason":"drop"}]}
            """#
        let message = try WireFormat.decodeServerMessage(Data(text.utf8))
        let over = DragTarget(collection: "done", index: 2, before: nil)
        #expect(
            message.dragMessages == [
                .drag(DragUpdate(client: "c7", name: "Ada", items: ["card-bot"], over: nil)),
                .dragOver(client: "c7", over: over),
                .dragCleared(client: "c7", reason: .drop),
            ])
        #expect(ServerMessage.dragOver(client: "c7", over: over).dragMessages == [.dragOver(client: "c7", over: over)])
        #expect(ServerMessage.pong(id: "1").dragMessages.isEmpty)
    }

    @Test(arguments: [
        #"{"type":"drags","changes":[{"type":"pong","id":"1"}]}"#,
        #"{"type":"drags","changes":[{"type":"drags","changes":[]}]}"#,
        #"{"type":"drags"}"#,
        #"{"type":"drags","changes":[{"type":"drag.over","client":"c7"}]}"#,
    ])
    func aBatchOfAnythingButDragChangesIsRefused(text: String) {
        #expect(throws: (any Error).self) { try WireFormat.decodeServerMessage(Data(text.utf8)) }
    }
}
