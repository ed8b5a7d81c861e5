import CorkboardModel
import Testing

/// Committed opIds and the answers told to one sender are remembered apart
/// (docs/protocol.md#resending-an-opid): nothing a client provokes without committing
/// pushes a commit out.
@Suite struct OpIdMemoryTests {
    /// A move of an item that is not on the board: rejected `gone`, and remembered.
    private func missingMove(_ opId: String, base: Int) -> OperationRequest {
        move(opId, base: base, ["nowhere"], to: "todo")
    }

    @Test func aFloodOfRejectionsNeverEvictsACommittedOpId() throws {
        var engine = try makeEngine("todo: a b c", historyCapacity: 100)
        let first = try #require(engine.apply(move("A-1", base: 0, ["a"], to: "todo"), client: "cA", role: .editor).event)
        _ = engine.apply(move("B-1", base: 1, ["a"], to: "todo", before: "b"), client: "cB", role: .editor)
        // Far more rejections than the whole memory holds, from several senders and a viewer.
        for flooder in 0..<4 {
            for number in 0..<300 {
                _ = engine.apply(missingMove("f\(flooder)-\(number)", base: 2), client: "cF\(flooder)", role: .editor)
                _ = engine.apply(OperationRequest(opId: "v\(flooder)-\(number)", .lock(locked: true)), client: "cV", role: .viewer)
            }
        }
        let resent = engine.apply(move("A-1", base: 0, ["a"], to: "todo"), client: "cA2", role: .editor)
        #expect(resent == .repeated(.committed(first)))
        #expect(engine.seq == 2)
        #expect(engine.layoutText == "todo: a b c")
    }

    @Test func aSenderForgetsItsOwnOldestAnswersFirst() throws {
        var engine = try makeEngine("todo: a", historyCapacity: 100_000)
        let quiet = engine.apply(missingMove("quiet", base: 0), client: "cQ", role: .editor)
        let perSender = BoardEngine.answersPerSender
        for number in 0..<(perSender + 5) {
            _ = engine.apply(missingMove("loud-\(number)", base: 0), client: "cL", role: .editor)
        }
        #expect(engine.rememberedOutcome(for: "loud-0") == nil)
        #expect(engine.rememberedOutcome(for: "loud-4") == nil)
        #expect(engine.rememberedOutcome(for: "loud-5") != nil)
        guard case .rejected(let rejection) = quiet else {
            Issue.record("not rejected: \(quiet)")
            return
        }
        #expect(engine.rememberedOutcome(for: "quiet") == .rejected(rejection))
    }

    @Test func manySendersTogetherStayWithinTheBoardsBound() throws {
        var engine = try makeEngine("todo: a", historyCapacity: 50)
        for sender in 0..<20 {
            for number in 0..<10 { _ = engine.apply(missingMove("s\(sender)-\(number)", base: 0), client: "c\(sender)", role: .editor) }
        }
        // 200 answers, 50 kept: the newest.
        #expect(engine.rememberedOutcome(for: "s14-9") == nil)
        #expect(engine.rememberedOutcome(for: "s15-0") != nil)
        #expect(engine.rememberedOutcome(for: "s19-9") != nil)
    }

    @Test func aCommitOlderThanTheHistorysBytesIsAnsweredAsANoopAtItsSeq() throws {
        var engine = try BoardEngine(board: makeBoard("todo: a b"), historyCapacity: 1_000, historyByteBudget: 64 * 1024)
        #expect(engine.apply(move("early", base: 0, ["a"], to: "todo"), client: "c1", role: .editor).event?.seq == 1)
        let big: JSONObject = ["blob": .string(String(repeating: "x", count: 30_000))]
        for number in 0..<10 {
            let request = OperationRequest(opId: "big-\(number)", baseSeq: engine.seq, .updateItem(item: "b", label: nil, data: .replace(big)))
            #expect(engine.apply(request, client: "c2", role: .editor).event != nil)
        }
        #expect(engine.oldestReachableSeq > 1)
        #expect(engine.historyBytes.all <= 64 * 1024)
        let resent = engine.apply(move("early", base: 0, ["a"], to: "todo"), client: "c3", role: .editor)
        #expect(resent == .repeated(.noop(Noop(opId: "early", seq: 1))))
        #expect(engine.seq == 11)
    }

    @Test func foldedCommitsRestoredFromAStoreAreAnsweredAsNoops() throws {
        var restored = try BoardEngine(board: makeBoard("todo: a b c"), seq: 7)
        restored.remember(committed: "old-5", seq: 5)
        restored.remember(committed: "old-7", seq: 7)
        #expect(restored.apply(move("old-5", base: 7, ["a"], to: "todo"), client: "c9", role: .editor) == .repeated(.noop(Noop(opId: "old-5", seq: 5))))
        #expect(restored.seq == 7)
    }

    @Test func aRevertedCommitMaySendItsOpIdAgain() throws {
        var engine = try makeEngine("todo: a b c")
        _ = engine.apply(move("k", base: 0, ["a"], to: "todo"), client: "c1", role: .editor)
        try engine.revert(after: 0)
        #expect(engine.rememberedOutcome(for: "k") == nil)
        #expect(engine.apply(move("k", base: 0, ["a"], to: "todo"), client: "c1", role: .editor).event?.seq == 1)
    }
}
