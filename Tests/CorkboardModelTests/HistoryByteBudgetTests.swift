import CorkboardModel
import Testing

/// The history keeps about `historyByteBudget` bytes of events, never the ones after its
/// protected seq (not durable yet), and always the newest.
@Suite struct HistoryByteBudgetTests {
    private static let budget = 100_000
    private static let payload: JSONObject = ["blob": .string(String(repeating: "y", count: 20_000))]

    private func update(_ engine: inout BoardEngine, _ opId: String) -> Outcome {
        engine.apply(
            OperationRequest(opId: opId, baseSeq: engine.seq, .updateItem(item: "a", label: opId, data: .replace(Self.payload))),
            client: "c", role: .editor)
    }

    @Test func bigEventsShortenTheWindowToTheBudget() throws {
        var engine = try BoardEngine(board: makeBoard("todo: a b"), historyCapacity: 1_000, historyByteBudget: Self.budget)
        for number in 0..<50 { _ = update(&engine, "u\(number)") }
        #expect(engine.historyBytes.all <= Self.budget)
        #expect(engine.oldestReachableSeq >= 40)
        // What is kept still rebuilds the past exactly.
        let past = try #require(engine.board(asOf: engine.oldestReachableSeq))
        #expect(past.collections[0].items[0].label == "u\(engine.oldestReachableSeq - 1)")
    }

    @Test func smallEventsKeepTheirFullCount() throws {
        var engine = try BoardEngine(board: makeBoard("todo: a b c"), historyCapacity: 200, historyByteBudget: Self.budget)
        for number in 0..<150 { _ = engine.apply(move("m\(number)", base: engine.seq, ["a"], to: "todo"), client: "c", role: .editor) }
        #expect(engine.oldestReachableSeq == 0)
    }

    @Test func protectedEventsStayUntilTheyAreReleased() throws {
        var engine = try BoardEngine(board: makeBoard("todo: a b"), historyCapacity: 1_000, historyByteBudget: Self.budget)
        _ = update(&engine, "durable")
        engine.protectHistory(after: 1)
        for number in 0..<20 { _ = update(&engine, "pending-\(number)") }
        // Twenty events of 20 KB after the protected seq: over the budget, all kept, and
        // revertible to the durable seq.
        #expect(engine.historyBytes.protected > Self.budget)
        #expect(engine.oldestReachableSeq <= 1)
        try engine.revert(after: 1)
        #expect(engine.board.collections[0].items[0].label == "durable")
        for number in 0..<20 { _ = update(&engine, "again-\(number)") }
        engine.protectHistory(after: engine.seq)
        #expect(engine.historyBytes.protected == 0)
        #expect(engine.historyBytes.all <= Self.budget)
    }

    @Test func oneEventBiggerThanTheBudgetIsStillKept() throws {
        var engine = try BoardEngine(board: makeBoard("todo: a"), historyCapacity: 10, historyByteBudget: 1_000)
        _ = update(&engine, "huge")
        #expect(engine.oldestReachableSeq == 0)
        _ = update(&engine, "next")
        #expect(engine.oldestReachableSeq == 1)
    }
}
