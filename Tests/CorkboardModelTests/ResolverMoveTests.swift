import CorkboardModel
import Testing

/// Rules 3–7 of docs/protocol.md#5-resolution for moves: source normalisation, busy,
/// destination, anchor resolution, contiguous insertion, and concurrent moves and deletes.
@Suite struct ResolverMoveTests {
    @Test func duplicateAndMissingSourcesAreDroppedAndMarkAdjusted() throws {
        var engine = try makeEngine("todo: a b c d; done: x")
        let event = try #require(engine.apply(move("m", base: 0, ["c", "zz", "a", "c"], to: "done"), client: "c1", role: .editor).event)
        #expect(event.op == .move(sources: ["c", "a"], destination: Destination(collection: "done", before: nil)))
        #expect(event.adjusted)
        #expect(engine.layoutText == "todo: b d; done: x c a")
    }

    @Test func noSurvivingSourceIsGone() throws {
        var engine = try makeEngine("todo: a")
        #expect(engine.apply(move("m", base: 0, ["zz", "yy"], to: "todo"), client: "c1", role: .editor).rejectionCode == .gone)
    }

    @Test func aSourceInAnotherClientsDragIsBusy() throws {
        var engine = try makeEngine("todo: a b c")
        let leases = LeaseTable(holders: ["b": "c2"])
        let busy = engine.apply(move("m", base: 0, ["a", "b"], to: "todo"), client: "c1", role: .editor, leases: leases)
        #expect(busy.rejectionCode == .busy)
        // The holder itself may move what it holds (its drop).
        #expect(engine.apply(move("m2", base: 0, ["b"], to: "todo"), client: "c2", role: .editor, leases: leases).event != nil)
        // Busy is transient: the first opId is resolved anew once the lease is gone.
        #expect(engine.apply(move("m", base: 1, ["a", "b"], to: "todo"), client: "c1", role: .editor).event != nil)
    }

    @Test func aMissingDestinationIsGone() throws {
        var engine = try makeEngine("todo: a b")
        #expect(engine.apply(move("m", base: 0, ["a"], to: "done"), client: "c1", role: .editor).rejectionCode == .gone)
        #expect(engine.apply(insert("i", base: 0, ["n"], to: "done"), client: "c1", role: .editor).rejectionCode == .gone)
    }

    /// Rule 5, every case, against `todo: a b c d e` with nothing changed since base 0.
    @Test(arguments: [
        (["a"], nil as String?, "todo: b c d e a", nil as String?),
        (["a"], "d", "todo: b c a d e", "d"),
        (["b", "d"], "b", "todo: a b d c e", "c"), // before one of themselves: gathered in place
        (["d", "e"], "d", "todo: a b c d e", nil), // ... which can be a noop
        (["e", "c"], "e", "todo: a b d e c", nil), // anchor is a source and nothing follows: the end
        (["d", "a"], "b", "todo: d a b c e", "b"), // the given order, not board order
    ])
    func anchorResolution(sources: [String], before: String?, expected: String, resolvedBefore: String?) throws {
        var engine = try makeEngine("todo: a b c d e")
        let outcome = engine.apply(move("m", base: 0, sources, to: "todo", before: before), client: "c1", role: .editor)
        #expect(engine.layoutText == expected)
        if case .move(_, let destination) = outcome.event?.op {
            #expect(destination.before == resolvedBefore)
            #expect(outcome.event?.adjusted == false)
        } else {
            #expect(outcome.isNoop)
        }
    }

    @Test func noopIsNotSequenced() throws {
        var engine = try makeEngine("todo: a b c")
        _ = engine.apply(move("m0", base: 0, ["c"], to: "todo", before: "a"), client: "c1", role: .editor)
        for (opId, sources, before) in [("n1", ["c"], "a"), ("n2", ["c", "a"], "b"), ("n3", ["b"], nil as String?)] {
            let outcome = engine.apply(move(opId, base: 1, sources, to: "todo", before: before), client: "c1", role: .editor)
            #expect(outcome == .noop(Noop(opId: opId, seq: 1)))
        }
        #expect(engine.seq == 1)
        #expect(engine.layoutText == "todo: c a b")
    }

    @Test func twoClientsMoveDifferentItemsIntoTheSameGap() throws {
        var engine = try makeEngine("todo: a b c; done: x y")
        let first = engine.apply(move("A", base: 0, ["x"], to: "todo", before: "b"), client: "cA", role: .editor)
        let second = engine.apply(move("B", base: 0, ["y"], to: "todo", before: "b"), client: "cB", role: .editor)
        #expect(first.event?.adjusted == false)
        #expect(second.event?.adjusted == false)
        // Both land in the gap, in arrival order.
        #expect(engine.layoutText == "todo: a x y b c; done:")
    }

    @Test func aMovedAwayAnchorFallsBackToTheNextItemAsOfTheBase() throws {
        // B moves b away; A, still at base 0, drops x before b.
        var engine = try makeEngine("todo: a b c d; done: x")
        _ = engine.apply(move("B", base: 0, ["b"], to: "done"), client: "cB", role: .editor)
        let event = try #require(engine.apply(move("A", base: 0, ["x"], to: "todo", before: "b"), client: "cA", role: .editor).event)
        #expect(event.op == .move(sources: ["x"], destination: Destination(collection: "todo", before: "c")))
        #expect(event.adjusted)
        #expect(engine.layoutText == "todo: a x c d; done: b")
    }

    @Test func theFallbackSkipsItemsThatLeftOrAreSources() throws {
        var engine = try makeEngine("todo: a b c d e; done: x")
        _ = engine.apply(delete("d1", base: 0, ["b"]), client: "c2", role: .editor)
        _ = engine.apply(move("m1", base: 1, ["c"], to: "done"), client: "c2", role: .editor)
        // Anchor b is gone; c left; d is a source; so e.
        let event = try #require(engine.apply(move("A", base: 0, ["x", "d"], to: "todo", before: "b"), client: "cA", role: .editor).event)
        #expect(event.op == .move(sources: ["x", "d"], destination: Destination(collection: "todo", before: "e")))
        #expect(engine.layoutText == "todo: a x d e; done: c")
    }

    @Test func anAnchorNotInTheDestinationAtTheBaseEitherGoesToTheEnd() throws {
        var engine = try makeEngine("todo: a b; done: x y")
        let event = try #require(engine.apply(move("m", base: 0, ["a"], to: "done", before: "b"), client: "c1", role: .editor).event)
        #expect(event.op == .move(sources: ["a"], destination: Destination(collection: "done", before: nil)))
        #expect(event.adjusted)
        let ghost = try #require(engine.apply(move("g", base: 1, ["b"], to: "done", before: "nobody"), client: "c1", role: .editor).event)
        #expect(ghost.adjusted)
        #expect(engine.layoutText == "todo:; done: x y a b")
    }

    @Test func anAnchorFromBeforeTheWindowGoesToTheEnd() throws {
        var engine = try makeEngine("todo: a b c; done: x", historyCapacity: 1)
        _ = engine.apply(move("m1", base: 0, ["b"], to: "done"), client: "c2", role: .editor)
        _ = engine.apply(move("m2", base: 1, ["x"], to: "todo", before: "a"), client: "c2", role: .editor)
        #expect(engine.oldestReachableSeq == 1)
        // At base 0 the walk would give c, but 0 is no longer reachable.
        let event = try #require(engine.apply(move("A", base: 0, ["a"], to: "todo", before: "b"), client: "cA", role: .editor).event)
        #expect(event.op == .move(sources: ["a"], destination: Destination(collection: "todo", before: nil)))
        #expect(event.adjusted)
    }

    @Test func deleteWinsOverAConcurrentMove() throws {
        var engine = try makeEngine("todo: a b c; done: x")
        let leases = LeaseTable(holders: ["b": "cB"])
        let deletion = engine.apply(delete("A", base: 0, ["b"]), client: "cA", role: .editor, leases: leases)
        guard case .committed(let commit) = deletion else {
            Issue.record("delete did not commit")
            return
        }
        #expect(commit.leaseHits == [LeaseHit(item: "b", holder: "cB")])
        #expect(commit.holdersHit == ["cB"])
        // B drops the item it was dragging: it no longer exists.
        #expect(engine.apply(move("B", base: 0, ["b"], to: "done"), client: "cB", role: .editor).rejectionCode == .gone)
        // With another source left, the move goes on without it.
        let partial = try #require(engine.apply(move("B2", base: 0, ["b", "c"], to: "done"), client: "cB", role: .editor).event)
        #expect(partial.op == .move(sources: ["c"], destination: Destination(collection: "done", before: nil)))
        #expect(partial.adjusted)
    }

    @Test func theLaterOfTwoMovesOfTheSameItemDecides() throws {
        var engine = try makeEngine("todo: a b c; done: x")
        _ = engine.apply(move("A", base: 0, ["a"], to: "done"), client: "cA", role: .editor)
        let later = try #require(engine.apply(move("B", base: 0, ["a"], to: "todo", before: "c"), client: "cB", role: .editor).event)
        #expect(later.adjusted == false)
        #expect(engine.layoutText == "todo: b a c; done: x")
    }
}
