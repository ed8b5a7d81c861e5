import CorkboardModel
import Testing

/// docs/protocol.md#resending-an-opid: a resent opId gets its first outcome when that was
/// final, and is resolved anew after a transient rejection.
@Suite struct IdempotencyTests {
    @Test func aCommittedOpIdIsAnsweredAgainAndNotReapplied() throws {
        var engine = try makeEngine("todo: a b c")
        let first = try #require(engine.apply(move("k-1", base: 0, ["a"], to: "todo"), client: "c1", role: .editor).event)
        // Sent again, even with different content: the first outcome, nothing applied.
        let again = engine.apply(move("k-1", base: 1, ["b"], to: "todo"), client: "c1", role: .editor)
        #expect(again == .repeated(.committed(first)))
        #expect(engine.seq == 1)
        #expect(engine.layoutText == "todo: b c a")
    }

    @Test func noopAndPermanentRejectionsAreFinal() throws {
        var engine = try makeEngine("todo: a b c")
        #expect(engine.apply(move("n", base: 0, ["c"], to: "todo"), client: "c1", role: .editor) == .noop(Noop(opId: "n", seq: 0)))
        _ = engine.apply(move("x", base: 0, ["a"], to: "todo"), client: "c1", role: .editor)
        #expect(engine.apply(move("n", base: 1, ["b"], to: "todo"), client: "c1", role: .editor) == .repeated(.noop(Noop(opId: "n", seq: 0))))
        for (opId, code, request) in [
            ("g", RejectionCode.gone, move("g", base: 1, ["zz"], to: "todo")),
            ("i", .invalid, move("i", base: 9, ["a"], to: "todo")),
        ] {
            let first = engine.apply(request, client: "c1", role: .editor)
            #expect(first.rejectionCode == code)
            guard case .rejected(let rejection) = first else { continue }
            #expect(engine.apply(move(opId, base: 1, ["b"], to: "todo"), client: "c1", role: .editor) == .repeated(.rejected(rejection)))
        }
        let forbidden = engine.apply(move("f", base: 1, ["b"], to: "todo"), client: "c1", role: .viewer)
        guard case .rejected(let rejection) = forbidden else {
            Issue.record("viewer was not refused")
            return
        }
        #expect(engine.apply(move("f", base: 1, ["b"], to: "todo"), client: "c1", role: .editor) == .repeated(.rejected(rejection)))
        #expect(engine.seq == 1)
    }

    @Test func transientRejectionsAreResolvedAnew() throws {
        var engine = try makeEngine("todo: a b c")
        let busy = engine.apply(move("t", base: 0, ["a"], to: "todo"), client: "c1", role: .editor, leases: LeaseTable(holders: ["a": "c2"]))
        #expect(busy.rejectionCode == .busy)
        #expect(engine.apply(move("t", base: 0, ["a"], to: "todo"), client: "c1", role: .editor).event?.seq == 1)
    }

    @Test func theCodesKnowWhichArePermanent() {
        #expect(RejectionCode.allCases.filter(\.isPermanent) == [.gone, .forbidden, .invalid])
        #expect(RejectionCode.rateLimited.rawValue == "rate-limited")
    }

    @Test func oldOutcomesAreForgottenBeyondTheMemory() throws {
        var engine = try makeEngine("todo: a b c", historyCapacity: 2)
        for (number, item) in ["a", "b", "c"].enumerated() {
            _ = engine.apply(move("m\(number)", base: engine.seq, [item], to: "todo"), client: "c", role: .editor)
        }
        #expect(engine.rememberedOutcome(for: "m0") == nil)
        #expect(engine.rememberedOutcome(for: "m2") != nil)
    }
}
