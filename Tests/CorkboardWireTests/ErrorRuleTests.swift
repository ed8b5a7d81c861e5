import CorkboardModel
import CorkboardWire
import Foundation
import Testing

/// What an unusable client message gets back (docs/protocol.md#7-error-rules).
@Suite struct ErrorRuleTests {
    private func decode(_ text: String) -> DecodedClientMessage {
        WireFormat.decodeClientMessage(Data(text.utf8))
    }

    private func isError(_ result: DecodedClientMessage) -> Bool {
        if case .error(let error) = result { return error.code == .invalid }
        return false
    }

    @Test(arguments: [
        "not json",
        #"{"type":"hello""#,
        "[1,2]",
        #""hello""#,
        #"{"board":"demo"}"#,
        #"{"type":7}"#,
        #"{"type":"dance"}"#,
        #"{"type":"dance","opId":"k1"}"#,
        #"{"type":"hello","name":"Ada"}"#,
        #"{"type":"hello","board":"demo","name":"Ada","resume":{"epoch":"e1"}}"#,
        #"{"type":"drag.start","items":"i3"}"#,
        #"{"type":"drag.over","collection":"done"}"#,
        #"{"type":"drag.over","collection":"done","index":2.5}"#,
        #"{"type":"ping"}"#,
        #"{"type":"ping","id":7}"#,
        #"{"type":"ping","id":""}"#,
        #"{"type":"move","sources":["i3"],"destination":{"collection":"done"}}"#,
        #"{"type":"move","opId":17,"sources":["i3"],"destination":{"collection":"done"}}"#,
        #"{"type":"move","opId":null,"sources":"i3"}"#,
    ])
    func messagesWithoutAUsableOpIdGetAnError(text: String) {
        #expect(isError(decode(text)), "\(text)")
    }

    @Test(arguments: [
        #"{"type":"move","opId":"k1","baseSeq":42,"sources":"i3","destination":{"collection":"done"}}"#,
        #"{"type":"move","opId":"k1","baseSeq":"42","sources":["i3"],"destination":{"collection":"done"}}"#,
        #"{"type":"move","opId":"k1","baseSeq":42,"sources":["i3"]}"#,
        #"{"type":"move","opId":"k1","baseSeq":42,"sources":["i3"],"destination":{"collection":"done","before":5}}"#,
        #"{"type":"move","opId":"k1","baseSeq":42,"collection":"todo","fromOffsets":[1.5],"toOffset":2}"#,
        #"{"type":"move","opId":"k1","baseSeq":42,"collection":"todo","fromOffsets":[1]}"#,
        #"{"type":"insert","opId":"k1","baseSeq":42,"items":[{"id":"i20"}],"destination":{"collection":"todo"}}"#,
        #"{"type":"insert","opId":"k1","baseSeq":42,"items":[{"id":"i20","label":"x","data":[1]}],"destination":{"collection":"todo"}}"#,
        #"{"type":"delete","opId":"k1","baseSeq":42}"#,
        #"{"type":"update","opId":"k1","baseSeq":42,"item":"i3","collection":"todo"}"#,
        #"{"type":"update","opId":"k1","collection":"todo"}"#,
        #"{"type":"collection.add","opId":"k1","collection":"later"}"#,
        #"{"type":"collection.remove","opId":"k1"}"#,
        #"{"type":"collection.remove","opId":"k1","collection":"later","withItems":"yes"}"#,
        #"{"type":"collection.move","opId":"k1","baseSeq":42}"#,
        #"{"type":"collection.move","opId":"k1","baseSeq":42,"collections":"todo"}"#,
        #"{"type":"collection.move","opId":"k1","baseSeq":42,"collections":["todo",7]}"#,
        #"{"type":"collection.move","opId":"k1","baseSeq":42,"collections":["todo"],"before":5}"#,
        #"{"type":"collection.move","opId":"k1","baseSeq":42,"fromOffsets":[0]}"#,
        #"{"type":"collection.move","opId":"k1","baseSeq":42,"fromOffsets":[-0.5],"toOffset":1}"#,
        #"{"type":"lock","opId":"k1","locked":"yes"}"#,
    ])
    func operationsWithAStringOpIdAreRejected(text: String) {
        guard case .rejected(let rejected) = decode(text) else {
            Issue.record("not rejected: \(text)")
            return
        }
        #expect(rejected.opId == "k1")
        #expect(rejected.code == .invalid)
        #expect(rejected.message?.isEmpty == false)
    }

    @Test func shapeIsTheDecodersJobAndMeaningTheResolvers() throws {
        // Well-formed but meaningless: decodes, and the engine rejects it with the opId.
        let text = #"{"type":"move","opId":"k1","baseSeq":42,"sources":[],"destination":{"collection":"done"}}"#
        guard case .message(.operation(let request)) = decode(text) else {
            Issue.record("did not decode")
            return
        }
        var engine = try BoardEngine(board: Board(id: "b", title: "B", collections: [BoardCollection(id: "done", title: "Done")]))
        let outcome = engine.apply(request, client: "c1", role: .owner)
        guard case .rejected(let rejection) = outcome else {
            Issue.record("not rejected")
            return
        }
        let message = ServerMessage(outcome)
        #expect(message == .rejected(Rejected(opId: "k1", code: .invalid, message: rejection.message)))
    }

    @Test func outcomesMapToTheirMessages() {
        let event = CommittedEvent(seq: 3, opId: "o", client: "c", op: .lock(locked: true), adjusted: false)
        #expect(ServerMessage(.committed(Commit(event: event))) == .committed(event))
        #expect(ServerMessage(.repeated(.committed(event))) == .committed(event))
        #expect(ServerMessage(.noop(Noop(opId: "n", seq: 3))) == .noop(Noop(opId: "n", seq: 3)))
        #expect(ServerMessage(.repeated(.noop(Noop(opId: "n", seq: 3)))) == .noop(Noop(opId: "n", seq: 3)))
        let rejection = Rejection(opId: "r", code: .gone, message: "gone")
        #expect(ServerMessage(.repeated(.rejected(rejection))) == .rejected(Rejected(rejection)))
    }

    @Test func absentNullAndObjectDataAreThreeDifferentUpdates() {
        func data(_ fragment: String) -> DataChange? {
            let text = #"{"type":"update","opId":"k","baseSeq":1,"item":"i","label":"L""# + fragment + "}"
            guard case .message(.operation(let request)) = decode(text),
                case .updateItem(_, _, let change) = request.operation
            else { return nil }
            return change
        }
        #expect(data("") == .unchanged)
        #expect(data(#","data":null"#) == .remove)
        #expect(data(#","data":{"k":[true,null]}"#) == .replace(["k": .array([.bool(true), .null])]))
    }
}
