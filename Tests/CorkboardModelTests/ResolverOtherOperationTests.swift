import CorkboardModel
import Testing

/// docs/protocol.md#4-operations and docs/protocol.md#5-resolution for the operations other
/// than move: insert, delete, update, collections.
@Suite struct ResolverOtherOperationTests {
    @Test func insertLandsBeforeItsAnchorOrFallsBack() throws {
        var engine = try makeEngine("todo: a b c")
        #expect(engine.apply(insert("i1", base: 0, ["n", "m"], to: "todo", before: "b"), client: "c1", role: .editor).event?.adjusted == false)
        _ = engine.apply(delete("d", base: 1, ["c"]), client: "c2", role: .editor)
        // A client at base 1 drops before c, which is gone; nothing follows it: the end.
        let event = try #require(engine.apply(insert("i2", base: 1, ["z"], to: "todo", before: "c"), client: "c1", role: .editor).event)
        #expect(event.adjusted)
        #expect(engine.layoutText == "todo: a n m b z")
    }

    @Test func deleteDropsMissingIdsAndIsGoneWhenNoneExist() throws {
        var engine = try makeEngine("todo: a b c")
        let event = try #require(engine.apply(delete("d1", base: 0, ["b", "zz", "b"]), client: "c1", role: .editor).event)
        #expect(event.op == .delete(items: ["b"]))
        #expect(event.adjusted)
        #expect(engine.apply(delete("d2", base: 1, ["b"]), client: "c1", role: .editor).rejectionCode == .gone)
    }

    @Test func deleteIsNeverBusy() throws {
        var engine = try makeEngine("todo: a b c")
        let leases = LeaseTable(holders: ["a": "c2", "c": "c3"])
        guard case .committed(let commit) = engine.apply(delete("d", base: 0, ["c", "a", "b"]), client: "c1", role: .editor, leases: leases) else {
            Issue.record("delete of leased items did not commit")
            return
        }
        #expect(commit.leaseHits == [LeaseHit(item: "c", holder: "c3"), LeaseHit(item: "a", holder: "c2")])
        #expect(engine.layoutText == "todo:")
    }

    @Test func updateChangesLabelAndData() throws {
        var engine = try makeEngine("todo: a")
        let data: JSONObject = ["color": .string("red"), "points": .number(3)]
        _ = engine.apply(OperationRequest(opId: "u1", baseSeq: 0, .updateItem(item: "a", label: "A", data: .replace(data))), client: "c1", role: .editor)
        #expect(engine.board.collections[0].items[0] == Item(id: "a", label: "A", data: data))
        _ = engine.apply(OperationRequest(opId: "u2", baseSeq: 1, .updateItem(item: "a", label: nil, data: .remove)), client: "c1", role: .editor)
        #expect(engine.board.collections[0].items[0] == Item(id: "a", label: "A"))
        let gone = OperationRequest(opId: "u3", baseSeq: 2, .updateItem(item: "zz", label: "Z", data: .unchanged))
        #expect(engine.apply(gone, client: "c1", role: .editor).rejectionCode == .gone)
    }

    @Test func collectionsAreAddedRenamedAndRemovedWhenEmpty() throws {
        var engine = try makeEngine("todo: a; done:")
        _ = engine.apply(OperationRequest(opId: "c1", .addCollection(collection: "later", title: "Later", before: "done")), client: "c", role: .editor)
        #expect(engine.layoutText == "todo: a; later:; done:")
        #expect(
            engine.apply(OperationRequest(opId: "c2", .addCollection(collection: "later", title: "Again", before: nil)), client: "c", role: .editor)
                .rejectionCode == .invalid)
        let fallback = try #require(
            engine.apply(OperationRequest(opId: "c3", .addCollection(collection: "x", title: "X", before: "nowhere")), client: "c", role: .editor).event)
        #expect(fallback.op == .addCollection(collection: "x", title: "X", before: nil))
        #expect(fallback.adjusted)
        _ = engine.apply(OperationRequest(opId: "c4", .renameCollection(collection: "later", title: "Someday")), client: "c", role: .editor)
        #expect(engine.board.collections[1].title == "Someday")
        #expect(engine.apply(OperationRequest(opId: "c5", .removeCollection(collection: "todo")), client: "c", role: .editor).rejectionCode == .invalid)
        #expect(engine.apply(OperationRequest(opId: "c6", .removeCollection(collection: "later")), client: "c", role: .editor).event != nil)
        #expect(engine.apply(OperationRequest(opId: "c7", .removeCollection(collection: "later")), client: "c", role: .editor).rejectionCode == .gone)
        #expect(
            engine.apply(OperationRequest(opId: "c8", .renameCollection(collection: "later", title: "?")), client: "c", role: .editor).rejectionCode == .gone)
        #expect(engine.layoutText == "todo: a; done:; x:")
    }
}
