import CorkboardModel
import Foundation
import Testing

@testable import CorkboardWire

/// Example messages of every kind in docs/protocol.md decode to the expected value, and that
/// value encodes back to the same JSON (compared as JSON, so a null must stay a null).
@Suite struct SpecExampleTests {
    private func json(_ text: String) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
    }

    static let clientExamples: [(String, ClientMessage)] = [
        (
            #"{"type":"hello","board":"demo","name":"Ada","token":"...","resume":{"epoch":"e1","seq":42}}"#,
            .hello(Hello(board: "demo", name: "Ada", token: "...", resume: ResumePoint(epoch: "e1", seq: 42)))
        ),
        (#"{"type":"drag.start","items":["i3","i4"]}"#, .dragStart(items: ["i3", "i4"])),
        (#"{"type":"drag.over","collection":"done","index":2}"#, .dragOver(collection: "done", index: 2)),
        (#"{"type":"drag.start","collections":["todo"]}"#, .dragStartColumns(collections: ["todo"])),
        (#"{"type":"drag.over","index":2}"#, .dragOver(collection: nil, index: 2)),
        (#"{"type":"drag.end"}"#, .dragEnd),
        (#"{"type":"editing","item":"card-bot"}"#, .editing(item: "card-bot")),
        (#"{"type":"editing","item":null}"#, .editing(item: nil)),
        (#"{"type":"ping","id":"17"}"#, .ping(id: "17")),
        (
            #"{"type":"move","opId":"k3f9x-17","baseSeq":42,"sources":["i3","i4"],"destination":{"collection":"done","before":"i9"}}"#,
            .operation(
                OperationRequest(opId: "k3f9x-17", baseSeq: 42, .move(sources: ["i3", "i4"], destination: Destination(collection: "done", before: "i9"))))
        ),
        (
            #"{"type":"move","opId":"...","baseSeq":42,"collection":"todo","fromOffsets":[1,2],"toOffset":5,"toCollection":"done"}"#,
            .operation(OperationRequest(opId: "...", baseSeq: 42, .moveByOffsets(collection: "todo", fromOffsets: [1, 2], toOffset: 5, toCollection: "done")))
        ),
        (
            #"{"type":"insert","opId":"...","baseSeq":42,"items":[{"id":"i20","label":"New"}],"destination":{"collection":"todo","before":null}}"#,
            .operation(
                OperationRequest(opId: "...", baseSeq: 42, .insert(items: [Item(id: "i20", label: "New")], destination: Destination(collection: "todo"))))
        ),
        (
            #"{"type":"delete","opId":"...","baseSeq":42,"items":["i3"]}"#,
            .operation(OperationRequest(opId: "...", baseSeq: 42, .delete(items: ["i3"])))
        ),
        (
            #"{"type":"update","opId":"...","baseSeq":42,"item":"i3","label":"New text","data":{}}"#,
            .operation(OperationRequest(opId: "...", baseSeq: 42, .updateItem(item: "i3", label: "New text", data: .replace([:]))))
        ),
        (
            #"{"type":"update","opId":"...","collection":"todo","title":"Backlog"}"#,
            .operation(OperationRequest(opId: "...", .renameCollection(collection: "todo", title: "Backlog")))
        ),
        (
            #"{"type":"update","opId":"...","title":"Sprint 13"}"#,
            .operation(OperationRequest(opId: "...", .renameBoard(title: "Sprint 13")))
        ),
        (
            #"{"type":"collection.add","opId":"...","collection":{"id":"later","title":"Later"},"before":null}"#,
            .operation(OperationRequest(opId: "...", .addCollection(collection: "later", title: "Later", before: nil)))
        ),
        (
            #"{"type":"collection.remove","opId":"...","collection":"later"}"#,
            .operation(OperationRequest(opId: "...", .removeCollection(collection: "later")))
        ),
        (
            #"{"type":"collection.remove","opId":"k3f9x-32","collection":"later","withItems":true}"#,
            .operation(OperationRequest(opId: "k3f9x-32", .removeCollectionAndItems(collection: "later")))
        ),
        (#"{"type":"lock","opId":"...","locked":true}"#, .operation(OperationRequest(opId: "...", .lock(locked: true)))),
        (
            #"{"type":"collection.move","opId":"k3f9x-30","baseSeq":45,"collections":["done","later"],"before":"todo"}"#,
            .operation(OperationRequest(opId: "k3f9x-30", baseSeq: 45, .moveCollections(collections: ["done", "later"], before: "todo")))
        ),
        (
            #"{"type":"collection.move","opId":"k3f9x-31","baseSeq":45,"collections":["done"],"before":null}"#,
            .operation(OperationRequest(opId: "k3f9x-31", baseSeq: 45, .moveCollections(collections: ["done"], before: nil)))
        ),
        (
            #"{"type":"collection.move","opId":"k3f9x-31","baseSeq":45,"fromOffsets":[2],"toOffset":0}"#,
            .operation(OperationRequest(opId: "k3f9x-31", baseSeq: 45, .moveCollectionsByOffsets(fromOffsets: [2], toOffset: 0)))
        ),
        (
            #"{"type":"insert","opId":"...","baseSeq":42,"items":[{"id":"f1","label":"Ideas","folder":{"accepts":true}}],"destination":{"collection":"todo","before":null}}"#,
            .operation(
                OperationRequest(
                    opId: "...", baseSeq: 42,
                    .insert(items: [Item(id: "f1", label: "Ideas", folder: Folder(accepts: true))], destination: Destination(collection: "todo"))))
        ),
        (
            #"{"type":"move","opId":"...","baseSeq":43,"sources":["i3"],"destination":{"collection":"f1","before":null}}"#,
            .operation(OperationRequest(opId: "...", baseSeq: 43, .move(sources: ["i3"], destination: Destination(collection: "f1"))))
        ),
        (
            #"{"type":"update","opId":"...","baseSeq":44,"item":"f1","accepts":false}"#,
            .operation(OperationRequest(opId: "...", baseSeq: 44, .updateFolder(item: "f1", accepts: false)))
        ),
        (#"{"type":"peers.list","limit":100}"#, .peersList(after: nil, limit: 100)),
        (#"{"type":"peers.list","after":4821,"limit":100}"#, .peersList(after: 4821, limit: 100)),
    ]

    @Test(arguments: clientExamples)
    func clientExamplesDecodeAndEncode(text: String, expected: ClientMessage) throws {
        #expect(WireFormat.decodeClientMessage(Data(text.utf8)) == .message(expected))
        #expect(try json(String(decoding: try WireFormat.encode(expected), as: UTF8.self)) == json(text))
    }

    static let serverExamples: [(String, ServerMessage)] = [
        (
            #"""
            {"type":"welcome","client":"c7","role":"owner","epoch":"e1","seq":57,"resumed":false,
             "board":{"id":"demo","title":"Demo","locked":false,
                      "collections":[{"id":"todo","title":"To do","items":[{"id":"i1","label":"Spec"}]}]},
             "peers":[{"client":"c2","name":"Bob","drag":null}],"count":2}
            """#,
            .welcome(
                Welcome(
                    client: "c7", role: .owner, epoch: "e1", seq: 57, resumed: false,
                    board: Board(id: "demo", title: "Demo", collections: [BoardCollection(id: "todo", title: "To do", items: [Item(id: "i1", label: "Spec")])]),
                    peers: [Peer(client: "c2", name: "Bob", drag: nil)], count: 2))
        ),
        (
            #"{"type":"welcome","client":"c7","role":"editor","epoch":"e1","seq":42,"resumed":true,"peers":[{"client":"c2","name":"Bob","drag":{"items":["i3"],"over":null}}],"count":2}"#,
            .welcome(
                Welcome(
                    client: "c7", role: .editor, epoch: "e1", seq: 42, resumed: true, board: nil,
                    peers: [Peer(client: "c2", name: "Bob", drag: DragState(items: ["i3"], over: nil))], count: 2))
        ),
        (
            #"{"type":"welcome","client":"c7","role":"editor","epoch":"e1","seq":42,"resumed":true,"name":"Grace","peers":[],"count":1}"#,
            .welcome(Welcome(client: "c7", role: .editor, epoch: "e1", seq: 42, resumed: true, board: nil, peers: [], count: 1, name: "Grace"))
        ),
        (
            #"{"type":"editing","client":"c7","name":"Ada","item":"card-bot"}"#,
            .editing(client: "c7", name: "Ada", item: "card-bot")
        ),
        (#"{"type":"editing","client":"c7","name":"Ada","item":null}"#, .editing(client: "c7", name: "Ada", item: nil)),
        (#"{"type":"peer.joined","client":"c7","name":"Ada"}"#, .peerJoined(client: "c7", name: "Ada")),
        (#"{"type":"peer.left","client":"c7"}"#, .peerLeft(client: "c7")),
        (
            #"{"type":"peers","count":5213,"joined":[{"client":"c90","name":"Ada"}],"left":["c17"],"truncated":false}"#,
            .peers(PeersChange(count: 5213, joined: [PeerName(client: "c90", name: "Ada")], left: ["c17"], truncated: false))
        ),
        (
            #"{"type":"peers.page","count":5213,"peers":[{"client":"c4","name":"Ada","drag":null}],"next":4821}"#,
            .peersPage(PeersPage(count: 5213, peers: [Peer(client: "c4", name: "Ada")], next: 4821))
        ),
        (
            #"{"type":"peers.page","count":1,"peers":[],"next":null}"#,
            .peersPage(PeersPage(count: 1, peers: [], next: nil))
        ),
        (#"{"type":"rejected","ref":"drag.start","code":"busy","holder":"c2"}"#, .rejected(.dragStartBusy(holder: "c2"))),
        (
            #"{"type":"drag","client":"c7","name":"Ada","items":["i3","i4"],"over":{"collection":"done","index":2,"before":"i9"}}"#,
            .drag(DragUpdate(client: "c7", name: "Ada", items: ["i3", "i4"], over: DragTarget(collection: "done", index: 2, before: "i9")))
        ),
        (
            #"{"type":"drag","client":"c7","name":"Ada","collections":["todo"],"over":null}"#,
            .drag(DragUpdate(client: "c7", name: "Ada", items: [], collections: ["todo"], over: nil))
        ),
        (
            #"{"type":"drag.over","client":"c7","over":{"index":2,"before":"doing"}}"#,
            .dragOver(client: "c7", over: DragTarget(collection: nil, index: 2, before: "doing"))
        ),
        (
            #"{"type":"welcome","client":"c7","role":"editor","epoch":"e1","seq":42,"resumed":true,"peers":[{"client":"c2","name":"Bob","drag":{"collections":["todo"],"over":{"index":0,"before":"done"}}}],"count":2}"#,
            .welcome(
                Welcome(
                    client: "c7", role: .editor, epoch: "e1", seq: 42, resumed: true, board: nil,
                    peers: [
                        Peer(
                            client: "c2", name: "Bob",
                            drag: DragState(items: [], collections: ["todo"], over: DragTarget(collection: nil, index: 0, before: "done")))
                    ], count: 2))
        ),
        (
            #"{"type":"drag","client":"c7","name":"Ada","items":["i3"],"over":{"collection":"done","index":0,"before":null}}"#,
            .drag(DragUpdate(client: "c7", name: "Ada", items: ["i3"], over: DragTarget(collection: "done", index: 0, before: nil)))
        ),
        (
            #"{"type":"drag","client":"c7","name":"Ada","items":["i3"],"over":null}"#,
            .drag(DragUpdate(client: "c7", name: "Ada", items: ["i3"], over: nil))
        ),
        (
            #"{"type":"drag.over","client":"c7","over":{"collection":"done","index":2,"before":"card-start"}}"#,
            .dragOver(client: "c7", over: DragTarget(collection: "done", index: 2, before: "card-start"))
        ),
        (#"{"type":"drag.cleared","client":"c7","reason":"deleted"}"#, .dragCleared(client: "c7", reason: .deleted)),
        (#"{"type":"drag.cleared","client":"c7","reason":"expired"}"#, .dragCleared(client: "c7", reason: .expired)),
        (
            #"{"type":"rejected","ref":"drag.start","code":"rate-limited","message":"more than 60 presence messages per second; start the drag again shortly"}"#,
            .rejected(.dragStart(.rateLimited, "more than 60 presence messages per second; start the drag again shortly"))
        ),
        (
            #"{"type":"committed","seq":43,"opId":"k3f9x-17","client":"c7","op":{"type":"move","sources":["i3","i4"],"destination":{"collection":"done","before":"i9"}},"adjusted":false}"#,
            .committed(
                CommittedEvent(
                    seq: 43, opId: "k3f9x-17", client: "c7",
                    op: .move(sources: ["i3", "i4"], destination: Destination(collection: "done", before: "i9")), adjusted: false))
        ),
        (#"{"type":"committed","opId":"k3f9x-18","seq":43,"noop":true}"#, .noop(Noop(opId: "k3f9x-18", seq: 43))),
        (
            #"{"type":"rejected","opId":"k3f9x-19","code":"rate-limited","message":"slow down"}"#,
            .rejected(Rejected(opId: "k3f9x-19", code: .rateLimited, message: "slow down"))
        ),
        (#"{"type":"error","code":"invalid","message":"malformed JSON"}"#, .error(ErrorMessage(code: .invalid, message: "malformed JSON"))),
        (#"{"type":"pong","id":"17"}"#, .pong(id: "17")),
        (
            #"{"type":"error","code":"rate-limited","message":"more than 2 pings per second"}"#,
            .error(ErrorMessage(code: .rateLimited, message: "more than 2 pings per second"))
        ),
    ]

    @Test(arguments: serverExamples)
    func serverExamplesDecodeAndEncode(text: String, expected: ServerMessage) throws {
        #expect(try WireFormat.decodeServerMessage(Data(text.utf8)) == expected)
        #expect(try json(String(decoding: try WireFormat.encode(expected), as: UTF8.self)) == json(text))
    }

    @Test func everyClearReasonAndRejectionCodeIsTheSpecsString() {
        #expect(DragClearReason.allCases.map(\.rawValue) == ["drop", "cancel", "left", "timeout", "deleted", "expired"])
        #expect(RejectionCode.allCases.map(\.rawValue) == ["locked", "gone", "busy", "forbidden", "invalid", "rate-limited", "unavailable"])
    }

    @Test func encodingIsDeterministic() throws {
        let message = ServerMessage.committed(
            CommittedEvent(
                seq: 1, opId: "o", client: "c", op: .updateItem(item: "i", label: nil, data: .replace(["b": .number(1), "a": "x"])), adjusted: false))
        let text = String(decoding: try WireFormat.encode(message), as: UTF8.self)
        #expect(text == #"{"adjusted":false,"client":"c","op":{"data":{"a":"x","b":1},"item":"i","type":"update"},"opId":"o","seq":1,"type":"committed"}"#)
    }
}
