import CorkboardModel
import Testing

/// The engine copies the hub's `CommitStamp` into the event it commits (docs/protocol.md#outcomes):
/// it reads no clock itself, and the answer to a resent opId is the first event, stamp and all.
@Suite struct CommitStampTests {
    static let ada = CommitStamp(at: 1_795_575_010_123, by: "user-ada")

    @Test func theEventCarriesTheStampItWasAppliedWith() throws {
        var engine = try makeEngine("todo: a b c")
        let event = try #require(
            engine.apply(move("k-1", base: 0, ["a"], to: "todo"), client: "c1", role: .editor, stamp: Self.ada).event)
        #expect(event.at == 1_795_575_010_123 && event.by == "user-ada")
        #expect(engine.events(after: 0) == [event])
        #expect(engine.latestCommitTime == 1_795_575_010_123)
    }

    @Test func aResentOpIdIsAnsweredWithItsFirstStamp() throws {
        var engine = try makeEngine("todo: a b c")
        let first = try #require(
            engine.apply(move("k-1", base: 0, ["a"], to: "todo"), client: "c1", role: .editor, stamp: Self.ada).event)
        let later = CommitStamp(at: Self.ada.at + 60_000, by: "someone-else")
        #expect(engine.apply(move("k-1", base: 1, ["a"], to: "todo"), client: "c1", role: .editor, stamp: later) == .repeated(.committed(first)))
    }

    @Test func withoutAStampTheEventHasNeither() throws {
        var engine = try makeEngine("todo: a b c")
        let event = try #require(engine.apply(move("k-1", base: 0, ["a"], to: "todo"), client: "c1", role: .editor).event)
        #expect(event.at == nil && event.by == nil)
        #expect(engine.latestCommitTime == nil)
    }

    @Test func aRestoredEngineKnowsTheLastCommitTime() throws {
        var engine = try makeEngine("todo: a b c")
        let stamped = try #require(
            engine.apply(move("k-1", base: 0, ["a"], to: "todo"), client: "c1", role: .editor, stamp: Self.ada).event)
        let restored = try BoardEngine(snapshot: try makeEngine("todo: a b c").board, seq: 0, replaying: [stamped])
        #expect(restored.latestCommitTime == Self.ada.at)
        #expect(restored.rememberedOutcome(for: "k-1") == .committed(stamped))
    }
}
