import Testing

@testable import CorkboardModel

/// The kept window: boards as of past seqs, its edge, events for resume, and revert.
@Suite struct HistoryTests {
    @Test func everySeqInTheWindowCanBeReconstructed() throws {
        var engine = try makeEngine("todo: a b c; done: x y", historyCapacity: 100)
        var boards = [engine.board]
        let requests: [OperationRequest] = [
            move("1", base: 0, ["a", "x"], to: "done", before: "y"),
            delete("2", base: 1, ["b"]),
            insert("3", base: 2, ["n", "m"], to: "todo", before: "c"),
            OperationRequest(opId: "4", .addCollection(collection: "later", title: "Later", before: "todo")),
            OperationRequest(opId: "5", baseSeq: 4, .updateItem(item: "y", label: "Y", data: .replace(["k": .bool(true)]))),
            OperationRequest(opId: "6", .renameCollection(collection: "done", title: "Finished")),
            move("7", base: 6, ["c", "n", "m"], to: "later"),
            OperationRequest(opId: "8", .lock(locked: true)),
            OperationRequest(opId: "9", .lock(locked: false)),
            move("10", base: 9, ["c", "n", "m"], to: "todo"),
            OperationRequest(opId: "11", .removeCollection(collection: "later")),
            OperationRequest(opId: "12", .renameBoard(title: "Renamed")),
            move("13", base: 12, ["a"], to: "todo"),
        ]
        for request in requests {
            #expect(engine.apply(request, client: "c", role: .owner).event != nil, "\(request.opId)")
            boards.append(engine.board)
        }
        for seq in 0...engine.seq {
            #expect(engine.board(asOf: seq) == boards[seq], "seq \(seq)")
        }
    }

    @Test func theWindowEdgeIsExact() throws {
        var engine = try makeEngine("todo: a b c", historyCapacity: 3)
        for (number, item) in ["a", "b", "c", "a", "b"].enumerated() {
            _ = engine.apply(move("m\(number)", base: engine.seq, [item], to: "todo"), client: "c", role: .editor)
        }
        #expect(engine.seq == 5)
        #expect(engine.oldestReachableSeq == 2)
        #expect(engine.board(asOf: 2) != nil)
        #expect(engine.board(asOf: 1) == nil)
        #expect(engine.board(asOf: 6) == nil)
        #expect(engine.events(after: 2)?.map(\.seq) == [3, 4, 5])
        #expect(engine.events(after: 5) == [])
        #expect(engine.events(after: 1) == nil)
        // Offsets at the edge are read (each commit moves the edge); one past it are gone.
        #expect(engine.apply(moveOffsets("o1", base: 2, "todo", from: [0], to: 3), client: "c", role: .editor).rejectionCode == nil)
        #expect(engine.apply(moveOffsets("o2", base: engine.oldestReachableSeq, "todo", from: [0], to: 3), client: "c", role: .editor).rejectionCode == nil)
        #expect(
            engine.apply(moveOffsets("o3", base: engine.oldestReachableSeq - 1, "todo", from: [0], to: 3), client: "c", role: .editor).rejectionCode == .gone)
    }

    @Test func theDefaultWindowKeepsTheSpecsHundredThousandEvents() throws {
        let engine = try BoardEngine(board: makeBoard("todo: a"))
        #expect(BoardEngine.defaultHistoryCapacity >= 100_000)
        #expect(engine.oldestReachableSeq == 0)
    }

    @Test func revertUndoesEventsAndForgetsTheirOpIds() throws {
        var engine = try makeEngine("todo: a b c; done: x")
        let before = engine.board
        _ = engine.apply(move("1", base: 0, ["a"], to: "done"), client: "c", role: .editor)
        _ = engine.apply(delete("2", base: 1, ["b"]), client: "c", role: .editor)
        let reverted = try engine.revert(after: 0)
        #expect(reverted.map(\.seq) == [1, 2])
        #expect(engine.board == before)
        #expect(engine.seq == 0)
        // The store could not make them durable, so the same opIds may be sent again.
        #expect(engine.apply(move("1", base: 0, ["a"], to: "done"), client: "c", role: .editor).event?.seq == 1)
        #expect(throws: BoardError.self) { try engine.revert(after: 5) }
    }

    @Test func restoringFromASnapshotAndItsLaterEventsGivesTheSameEngine() throws {
        var engine = try makeEngine("todo: a b c; done: x")
        let snapshot = engine.board
        _ = engine.apply(move("1", base: 0, ["a", "b"], to: "done"), client: "c", role: .editor)
        _ = engine.apply(delete("2", base: 1, ["x"]), client: "c", role: .editor)
        let restored = try BoardEngine(snapshot: snapshot, seq: 0, replaying: engine.events(after: 0)!, historyCapacity: 1_000)
        #expect(restored.board == engine.board)
        #expect(restored.seq == 2)
        #expect(restored.board(asOf: 1) == engine.board(asOf: 1))
        #expect(restored.rememberedOutcome(for: "2") == engine.rememberedOutcome(for: "2"))
        let outOfOrder = try #require(engine.events(after: 1))
        #expect(throws: BoardError.self) { try BoardEngine(snapshot: snapshot, seq: 0, replaying: outOfOrder) }
    }

    @Test func aBadSnapshotIsRefused() {
        #expect(throws: BoardError.self) { try BoardEngine(board: makeBoard("todo: a; done: a")) }
        #expect(throws: BoardError.self) { try BoardEngine(board: makeBoard("todo: a; todo: b")) }
    }

    @Test func theRingBufferDropsTheOldestAndGrowsOnDemand() {
        var ring = RingBuffer<Int>(capacity: 3)
        #expect(ring.append(1) == nil)
        #expect(ring.append(2) == nil)
        #expect(ring.append(3) == nil)
        #expect(ring.append(4) == 1)
        #expect((0..<ring.count).map { ring[$0] } == [2, 3, 4])
        #expect(ring.removeLast() == 4)
        #expect(ring.append(5) == nil)
        #expect(ring.removeFirst() == 2)
        #expect((0..<ring.count).map { ring[$0] } == [3, 5])
    }
}
