import Testing

@testable import CorkboardHub

/// A loading room's wait for the other nodes' lists (`PeerListGathering`), driven directly.
@Suite struct PeerListGatheringTests {
    @Test func withNoOtherNodeLoadingGoesOnAtOnce() {
        let gathering = PeerListGathering<String>()
        let now = gathering.start(awaiting: [], then: "loaded")
        #expect(now == "loaded")
        #expect(!gathering.isWaiting)
        let passed = gathering.waitPassed()
        #expect(passed == nil, "the timer, had there been one, finds nothing")
    }

    @Test func theLastListToComeEndsTheWaitOnce() {
        let gathering = PeerListGathering<String>()
        let started = gathering.start(awaiting: ["b", "c"], then: "loaded")
        #expect(started == nil && gathering.isWaiting)
        let answers = ["x", "b", "b", "c", "c"].map { gathering.settled($0) }
        // A node not awaited, b, b again, c (the last), c again.
        #expect(answers == [nil, nil, nil, "loaded", nil])
        #expect(!gathering.isWaiting)
        let passed = gathering.waitPassed()
        #expect(passed == nil, "the list wait then does nothing")
    }

    @Test func theListWaitEndsItAndNamesTheSilentNodes() throws {
        let gathering = PeerListGathering<String>()
        let started = gathering.start(awaiting: ["d", "b", "c"], then: "loaded")
        let settled = gathering.settled("c")
        #expect(started == nil && settled == nil)
        let waitPassed = gathering.waitPassed()
        let passed = try #require(waitPassed)
        #expect(passed.then == "loaded")
        #expect(passed.silent == ["b", "d"])
        let late = gathering.settled("b")
        #expect(late == nil, "a list after the wait changes nothing")
    }
}
