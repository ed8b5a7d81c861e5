import CorkboardModel
import Testing

/// The bounds on what one board may grow to: items and collections (server limits the engine
/// is given) and an item's `data` (a fixed bound, like labels). Past them an operation is
/// rejected `invalid` and the board is unchanged; below them everything goes on as before.
@Suite struct BoardSizeLimitTests {
    @Test func aCollectionPastTheLimitIsRejectedAndRoomComesBackWhenOneGoes() throws {
        var engine = try makeEngine("todo: a; done:")
        engine.maximumCollections = 3
        #expect(engine.apply(addCollection("c1", "later"), client: "c", role: .editor).event != nil)
        let refused = engine.apply(addCollection("c2", "someday"), client: "c", role: .editor)
        #expect(refused.rejectionCode == .invalid)
        #expect(refused.rejection?.message == "the board holds at most 3 collections")
        #expect(engine.layoutText == "todo: a; done:; later:")
        #expect(engine.apply(OperationRequest(opId: "c3", .removeCollection(collection: "later")), client: "c", role: .editor).event != nil)
        #expect(engine.apply(addCollection("c4", "someday"), client: "c", role: .editor).event != nil)
        #expect(engine.layoutText == "todo: a; done:; someday:")
    }

    @Test func dataUpToTheBoundIsKeptAndPastItRejected() throws {
        var engine = try makeEngine("todo: a")
        // {"t":"…"} encodes to 8 bytes around the string.
        let fits: JSONObject = ["t": .string(String(repeating: "x", count: Limits.maximumDataBytes - 8))]
        let tooLong: JSONObject = ["t": .string(String(repeating: "x", count: Limits.maximumDataBytes - 7))]
        #expect(Limits.isValidData(fits) && !Limits.isValidData(tooLong))
        let kept = OperationRequest(opId: "u1", baseSeq: 0, .updateItem(item: "a", label: nil, data: .replace(fits)))
        #expect(engine.apply(kept, client: "c", role: .editor).event != nil)
        let update = OperationRequest(opId: "u2", baseSeq: 1, .updateItem(item: "a", label: "A", data: .replace(tooLong)))
        let refused = engine.apply(update, client: "c", role: .editor)
        #expect(refused.rejectionCode == .invalid)
        #expect(refused.rejection?.message == "data of item a is longer than 65536 bytes")
        let insert = OperationRequest(
            opId: "i1", baseSeq: 1, .insert(items: [Item(id: "n", label: "N", data: tooLong)], destination: Destination(collection: "todo")))
        #expect(engine.apply(insert, client: "c", role: .editor).rejectionCode == .invalid)
        #expect(engine.board.collections[0].items == [Item(id: "a", label: "a", data: fits)])
    }

    @Test func nestedDataIsMeasuredWhole() {
        let leaf: JSONValue = .array((0..<100).map { _ in .number(1) })
        let nested: JSONObject = ["rows": .array((0..<30).map { _ in .object(["cells": leaf]) })]
        // 30 rows × 100 numbers × 24 bytes (a number's longest form) is past 64 KiB.
        #expect(!Limits.isValidData(nested))
        #expect(Limits.isValidData(["rows": .array((0..<20).map { _ in .object(["cells": leaf]) })]))
        #expect(Limits.isValidData([:]))
    }

    private func addCollection(_ opId: String, _ id: String) -> OperationRequest {
        OperationRequest(opId: opId, .addCollection(collection: id, title: id, before: nil))
    }
}
