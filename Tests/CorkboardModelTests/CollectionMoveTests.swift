import CorkboardModel
import Testing

/// `collection.move` (docs/protocol.md#4-operations, rules of docs/protocol.md#5-resolution):
/// columns reordered by anchor or by offsets read at the base, the item move's rules over the
/// board's columns.
@Suite struct CollectionMoveTests {
    func moveColumns(_ opId: String, base: Int, _ collections: [String], before: String?) -> OperationRequest {
        OperationRequest(opId: opId, baseSeq: base, .moveCollections(collections: collections, before: before))
    }

    func moveColumnOffsets(_ opId: String, base: Int, from offsets: [Int], to toOffset: Int) -> OperationRequest {
        OperationRequest(opId: opId, baseSeq: base, .moveCollectionsByOffsets(fromOffsets: offsets, toOffset: toOffset))
    }

    @Test func columnsLandTogetherInTheOrderGivenBeforeTheAnchor() throws {
        var engine = try makeEngine("a: x; b: y; c:; d:")
        let event = try #require(engine.apply(moveColumns("m1", base: 0, ["d", "a"], before: "c"), client: "c1", role: .editor).event)
        #expect(event.op == .moveCollections(collections: ["d", "a"], before: "c"))
        #expect(!event.adjusted)
        #expect(engine.layoutText == "b: y; d:; a: x; c:")
        _ = try #require(engine.apply(moveColumns("m2", base: 1, ["b"], before: nil), client: "c1", role: .editor).event)
        #expect(engine.layoutText == "d:; a: x; c:; b: y")
    }

    @Test func beforeOneOfTheMovedGathersThemInPlace() throws {
        var engine = try makeEngine("a:; b:; c:; d:")
        let event = try #require(engine.apply(moveColumns("m", base: 0, ["d", "b"], before: "b"), client: "c1", role: .editor).event)
        #expect(event.op == .moveCollections(collections: ["d", "b"], before: "c"))
        #expect(!event.adjusted)
        #expect(engine.layoutText == "a:; d:; b:; c:")
    }

    @Test func anAnchorRemovedSinceTheBaseFallsToTheNextColumnThen() throws {
        var engine = try makeEngine("a:; b:; c:; d:")
        _ = try #require(engine.apply(OperationRequest(opId: "r", .removeCollection(collection: "b")), client: "c2", role: .editor).event)
        // c1 saw a b c d (base 0) and drops a before b, which is gone: c followed it.
        let event = try #require(engine.apply(moveColumns("m", base: 0, ["d"], before: "b"), client: "c1", role: .editor).event)
        #expect(event.op == .moveCollections(collections: ["d"], before: "c"))
        #expect(event.adjusted)
        #expect(engine.layoutText == "a:; d:; c:")
        // An anchor no column ever had goes to the end, adjusted.
        let nowhere = try #require(engine.apply(moveColumns("n", base: 2, ["a"], before: "zz"), client: "c1", role: .editor).event)
        #expect(nowhere.op == .moveCollections(collections: ["a"], before: nil))
        #expect(nowhere.adjusted)
    }

    @Test func missingAndRepeatedColumnsAreDroppedAndNoneLeftIsGone() throws {
        var engine = try makeEngine("a:; b:; c:")
        let event = try #require(engine.apply(moveColumns("m", base: 0, ["zz", "c", "c"], before: "a"), client: "c1", role: .editor).event)
        #expect(event.op == .moveCollections(collections: ["c"], before: "a"))
        #expect(event.adjusted)
        #expect(engine.apply(moveColumns("g", base: 1, ["zz"], before: nil), client: "c1", role: .editor).rejectionCode == .gone)
    }

    @Test func badRequestsAreInvalidAndNothingChanges() throws {
        var engine = try makeEngine("a: f/; b:; /f: y")
        let before = engine.board
        #expect(engine.apply(moveColumns("e", base: 0, [], before: nil), client: "c1", role: .editor).rejectionCode == .invalid)
        #expect(engine.apply(moveColumns("f", base: 0, ["f"], before: nil), client: "c1", role: .editor).rejectionCode == .invalid)
        #expect(engine.apply(moveColumns("g", base: 0, ["a"], before: "f"), client: "c1", role: .editor).rejectionCode == .invalid)
        #expect(
            engine.apply(moveColumns("h", base: 0, [String(repeating: "x", count: 129)], before: nil), client: "c1", role: .editor).rejectionCode == .invalid)
        let noBase = OperationRequest(opId: "i", .moveCollections(collections: ["a"], before: nil))
        #expect(engine.apply(noBase, client: "c1", role: .editor).rejection?.message == "baseSeq is required")
        #expect(engine.apply(moveColumnOffsets("j", base: 0, from: [2], to: 0), client: "c1", role: .editor).rejectionCode == .invalid)
        #expect(engine.apply(moveColumnOffsets("k", base: 0, from: [0], to: 3), client: "c1", role: .editor).rejectionCode == .invalid)
        #expect(engine.apply(moveColumnOffsets("l", base: 0, from: [], to: 0), client: "c1", role: .editor).rejectionCode == .invalid)
        #expect(engine.apply(moveColumns("v", base: 0, ["b"], before: "a"), client: "c1", role: .viewer).rejectionCode == .forbidden)
        #expect(engine.board == before)
        #expect(engine.seq == 0)
    }

    @Test func aMoveThatChangesNothingIsANoop() throws {
        var engine = try makeEngine("a:; b:; c:")
        #expect(engine.apply(moveColumns("m1", base: 0, ["a", "b"], before: "c"), client: "c1", role: .editor).isNoop)
        #expect(engine.apply(moveColumns("m2", base: 0, ["c"], before: nil), client: "c1", role: .editor).isNoop)
        #expect(engine.apply(moveColumnOffsets("m3", base: 0, from: [1], to: 2), client: "c1", role: .editor).isNoop)
        #expect(engine.seq == 0)
    }

    @Test func offsetsAreReadAgainstTheColumnsAtTheBase() throws {
        var engine = try makeEngine("a:; b:; c:; d:")
        // Someone else moves d to the front and adds a column first: c1 still saw a b c d.
        _ = try #require(engine.apply(moveColumns("o1", base: 0, ["d"], before: "a"), client: "c2", role: .editor).event)
        _ = try #require(
            engine.apply(OperationRequest(opId: "o2", .addCollection(collection: "e", title: "E", before: "a")), client: "c2", role: .editor).event)
        #expect(engine.layoutText == "d:; e:; a:; b:; c:")
        // Array.move(fromOffsets: [0, 1], toOffset: 3) on a b c d: a and b before d.
        let event = try #require(engine.apply(moveColumnOffsets("m", base: 0, from: [0, 1], to: 3), client: "c1", role: .editor).event)
        #expect(event.op == .moveCollections(collections: ["a", "b"], before: "d"))
        #expect(engine.layoutText == "a:; b:; d:; e:; c:")
        // toOffset == count: the end.
        _ = try #require(engine.apply(moveColumnOffsets("n", base: 3, from: [0], to: 5), client: "c1", role: .editor).event)
        #expect(engine.layoutText == "b:; d:; e:; c:; a:")
    }

    @Test func offsetsBeyondTheKeptHistoryAreGone() throws {
        var engine = try makeEngine("a:; b:; c:", historyCapacity: 1)
        _ = try #require(engine.apply(moveColumns("m1", base: 0, ["c"], before: "a"), client: "c2", role: .editor).event)
        _ = try #require(engine.apply(moveColumns("m2", base: 1, ["b"], before: "c"), client: "c2", role: .editor).event)
        #expect(engine.apply(moveColumnOffsets("m3", base: 0, from: [0], to: 2), client: "c1", role: .editor).rejectionCode == .gone)
    }

    @Test func itemsStayInTheirColumnsAndItemOffsetsStillReadRight() throws {
        var engine = try makeEngine("a: x y; b: z")
        _ = try #require(engine.apply(moveColumns("m", base: 0, ["b"], before: "a"), client: "c2", role: .editor).event)
        // c1 at base 0 moves y (offset 1 of a) to the front of b.
        let event = try #require(engine.apply(moveOffsets("o", base: 0, "a", from: [1], to: 0, in: "b"), client: "c1", role: .editor).event)
        #expect(event.op == .move(sources: ["y"], destination: Destination(collection: "b", before: "z")))
        #expect(engine.layoutText == "b: y z; a: x")
        #expect(engine.board(asOf: 1) == makeBoard("b: z; a: x y"))
        #expect(engine.board(asOf: 0) == makeBoard("a: x y; b: z"))
    }

    @Test func aLockedBoardRefusesIt() throws {
        var engine = try makeEngine("a:; b:", locked: true)
        #expect(engine.apply(moveColumns("m", base: 0, ["b"], before: "a"), client: "c1", role: .owner).rejectionCode == .locked)
    }
}
