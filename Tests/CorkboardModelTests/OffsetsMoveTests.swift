import CorkboardModel
import Testing

/// Moves by offsets (docs/protocol.md#4-operations): read against the board at the base seq
/// with the meaning of `Array.move(fromOffsets:toOffset:)`. That method is SwiftUI's and
/// does not exist on Linux, so `referenceMove` (TestSupport) is the documented semantics
/// written out.
@Suite struct OffsetsMoveTests {
    /// Every subset of offsets and every `toOffset` of a five-item list.
    @Test func everyMoveOnAnUnchangedListAgreesWithArrayMove() throws {
        let items = ["a", "b", "c", "d", "e"]
        for mask in 1..<(1 << items.count) {
            let offsets = Set(items.indices.filter { mask & (1 << $0) != 0 })
            for toOffset in 0...items.count {
                var engine = try makeEngine("todo: " + items.joined(separator: " "))
                let outcome = engine.apply(
                    moveOffsets("m", base: 0, "todo", from: offsets.sorted(), to: toOffset), client: "c1", role: .editor)
                let expected = referenceMove(items, fromOffsets: offsets, toOffset: toOffset)
                #expect(engine.board.collections[0].items.map(\.id) == expected, "offsets \(offsets.sorted()) to \(toOffset)")
                #expect(outcome.isNoop == (expected == items))
                #expect(outcome.event?.adjusted != true)
            }
        }
    }

    @Test func theReferenceIsTheDocumentedExample() {
        // The example of `move(fromOffsets:toOffset:)`'s documentation.
        let letters = ["A", "B", "C", "D", "E"]
        #expect(referenceMove(letters, fromOffsets: [1, 3], toOffset: 4) == ["A", "C", "B", "D", "E"])
        #expect(referenceMove(letters, fromOffsets: [0], toOffset: 5) == ["B", "C", "D", "E", "A"])
    }

    @Test func crossCollectionOffsetsMoves() throws {
        var engine = try makeEngine("todo: a b c; done: x y")
        let event = try #require(engine.apply(moveOffsets("m", base: 0, "todo", from: [2, 0], to: 1, in: "done"), client: "c1", role: .editor).event)
        // Ascending offset order, anchor = the item at toOffset in the destination.
        #expect(event.op == .move(sources: ["a", "c"], destination: Destination(collection: "done", before: "y")))
        #expect(engine.layoutText == "todo: b; done: x a c y")
        let toEnd = try #require(engine.apply(moveOffsets("m2", base: 1, "done", from: [0], to: 1, in: "todo"), client: "c1", role: .editor).event)
        #expect(toEnd.op == .move(sources: ["x"], destination: Destination(collection: "todo", before: nil)))
        #expect(engine.layoutText == "todo: b x; done: a c y")
    }

    @Test func offsetsAreReadAtTheBaseSeq() throws {
        var engine = try makeEngine("todo: a b c d; done: x")
        _ = engine.apply(move("B", base: 0, ["d"], to: "todo", before: "a"), client: "cB", role: .editor)
        #expect(engine.layoutText == "todo: d a b c; done: x")
        // At base 0, offset 1 is b and toOffset 3 is d.
        let event = try #require(engine.apply(moveOffsets("A", base: 0, "todo", from: [1], to: 3), client: "cA", role: .editor).event)
        #expect(event.op == .move(sources: ["b"], destination: Destination(collection: "todo", before: "d")))
        #expect(engine.layoutText == "todo: b d a c; done: x")
    }

    @Test func anOffsetsSourceDeletedSinceIsDropped() throws {
        var engine = try makeEngine("todo: a b c; done: x")
        _ = engine.apply(delete("B", base: 0, ["a"]), client: "cB", role: .editor)
        let event = try #require(engine.apply(moveOffsets("A", base: 0, "todo", from: [0, 1], to: 1, in: "done"), client: "cA", role: .editor).event)
        #expect(event.op == .move(sources: ["b"], destination: Destination(collection: "done", before: nil)))
        #expect(event.adjusted)
        #expect(engine.apply(moveOffsets("A2", base: 0, "todo", from: [0], to: 0, in: "done"), client: "cA", role: .editor).rejectionCode == .gone)
    }

    @Test func anOffsetsAnchorThatLeftFallsBackAlongTheBaseOrder() throws {
        var engine = try makeEngine("todo: a b c d; done: x")
        _ = engine.apply(move("B", base: 0, ["b"], to: "done"), client: "cB", role: .editor)
        // At base 0 toOffset 1 is b, which left: the next item then that is still here is c.
        let event = try #require(engine.apply(moveOffsets("A", base: 0, "done", from: [0], to: 1, in: "todo"), client: "cA", role: .editor).event)
        #expect(event.op == .move(sources: ["x"], destination: Destination(collection: "todo", before: "c")))
        #expect(event.adjusted)
    }

    @Test func offsetsNameCollectionsAndLengthsAsTheyWereAtTheBase() throws {
        var engine = try makeEngine("todo: a b; done:")
        _ = engine.apply(OperationRequest(opId: "add", .addCollection(collection: "new", title: "New", before: nil)), client: "c", role: .editor)
        _ = engine.apply(move("m", base: 1, ["a"], to: "done"), client: "c", role: .editor)
        // "new" did not exist at base 0, as source or as destination.
        #expect(engine.apply(moveOffsets("o1", base: 0, "new", from: [0], to: 0, in: "todo"), client: "c", role: .editor).rejectionCode == .invalid)
        #expect(engine.apply(moveOffsets("o2", base: 0, "todo", from: [0], to: 0, in: "new"), client: "c", role: .editor).rejectionCode == .invalid)
        // At base 0 todo held two items and done none, though now it is one each.
        let event = try #require(engine.apply(moveOffsets("o3", base: 0, "todo", from: [1], to: 0, in: "done"), client: "c", role: .editor).event)
        #expect(event.op == .move(sources: ["b"], destination: Destination(collection: "done", before: nil)))
        #expect(engine.layoutText == "todo:; done: a b; new:")
    }

    @Test func randomOffsetsMovesAcrossCollectionsAgreeWithTheReference() throws {
        var random = SplitMix64(seed: 42)
        for round in 0..<300 {
            let lengths = (0..<3).map { _ in Int.random(in: 0...6, using: &random) }
            var columns: [[String]] = lengths.enumerated().map { column, length in (0..<length).map { "c\(column)i\($0)" } }
            guard let source = columns.indices.filter({ !columns[$0].isEmpty }).randomElement(using: &random) else { continue }
            let target = Int.random(in: 0..<3, using: &random)
            let offsets = Set((0..<Int.random(in: 1...3, using: &random)).map { _ in Int.random(in: 0..<columns[source].count, using: &random) })
            let toOffset = Int.random(in: 0...columns[target].count, using: &random)
            var engine = try BoardEngine(
                board: Board(
                    id: "b", title: "B",
                    collections: columns.enumerated().map { column, ids in
                        BoardCollection(id: "c\(column)", title: "", items: ids.map { Item(id: $0, label: $0) })
                    }))
            _ = engine.apply(moveOffsets("m", base: 0, "c\(source)", from: offsets.sorted(), to: toOffset, in: "c\(target)"), client: "c", role: .editor)
            if source == target {
                columns[source] = referenceMove(columns[source], fromOffsets: offsets, toOffset: toOffset)
            } else {
                let moving = offsets.sorted().map { columns[source][$0] }
                columns[source] = columns[source].enumerated().filter { !offsets.contains($0.offset) }.map(\.element)
                columns[target].insert(contentsOf: moving, at: toOffset)
            }
            #expect(engine.board.collections.map { $0.items.map(\.id) } == columns, "round \(round)")
        }
    }
}
