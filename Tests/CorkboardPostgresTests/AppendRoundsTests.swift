import Testing

@testable import CorkboardPostgres

/// Which appends go together, driven with plain values: no database.
@Suite struct AppendRoundsTests {
    @Test func anAppendWithNothingInFlightGoesAtOnceAlone() {
        var rounds = AppendRounds<String>(limit: 8)
        #expect(rounds.add("a") == ["a"])
        #expect(rounds.isSending)
        #expect(rounds.answered() == nil)
        #expect(!rounds.isSending)
        #expect(rounds.add("b") == ["b"])
    }

    @Test func appendsArrivingDuringARoundGoTogetherInTheNext() {
        var rounds = AppendRounds<String>(limit: 8)
        #expect(rounds.add("a") == ["a"])
        #expect(rounds.add("b") == nil)
        #expect(rounds.add("c") == nil)
        #expect(rounds.waitingCount == 2)
        #expect(rounds.answered() == ["b", "c"])
        #expect(rounds.isSending)
        #expect(rounds.answered() == nil)
    }

    @Test func aRoundTakesAtMostTheLimitAndTheRestFollowInOrder() {
        var rounds = AppendRounds<Int>(limit: 3)
        #expect(rounds.add(0) == [0])
        for value in 1...7 { #expect(rounds.add(value) == nil) }
        #expect(rounds.answered() == [1, 2, 3])
        #expect(rounds.answered() == [4, 5, 6])
        #expect(rounds.answered() == [7])
        #expect(rounds.answered() == nil)
    }

    @Test func appendsRolledBackWithARefusedOneGoFirstInTheNextRound() {
        var rounds = AppendRounds<String>(limit: 8)
        #expect(rounds.add("a") == ["a"])
        #expect(rounds.add("late") == nil)
        // "a" was one of [x, a, y]; say "a" was refused and x, y were rolled back with it.
        #expect(rounds.answered(again: ["x", "y"]) == ["x", "y", "late"])
    }

    @Test func rolledBackAppendsAreSentAgainEvenWhenNothingElseWaits() {
        var rounds = AppendRounds<String>(limit: 1)
        #expect(rounds.add("a") == ["a"])
        #expect(rounds.answered(again: ["x", "y"]) == ["x"])
        #expect(rounds.answered() == ["y"])
        #expect(rounds.answered() == nil)
    }
}
