import CorkboardModel
import CorkboardStore
import Testing

@testable import CorkboardHub

@Suite struct CommitPipelineTests {
    static func event(_ seq: Int) -> CommittedEvent {
        CommittedEvent(seq: seq, opId: "op-\(seq)", client: "c1", op: .lock(locked: seq % 2 == 1), adjusted: false)
    }

    static let member = ReplyTarget.member(ObjectIdentifier(CommitPipelineTests.Token()))
    final class Token {}

    /// What a delivery says, for comparing.
    static func describe(_ deliveries: [Delivery]) -> [String] {
        deliveries.map { delivery in
            switch delivery {
            case .broadcast(let event, _, _): "broadcast \(event.seq)"
            case .reply(.rejected(let rejection), _): "rejected \(rejection.opId) \(rejection.code.rawValue)"
            case .reply(.noop(let noop), _): "noop \(noop.opId)"
            case .reply(.repeated(.committed(let event)), _): "repeat \(event.seq)"
            case .reply(let outcome, _): "reply \(outcome)"
            }
        }
    }

    @Test func transientAnswersGoOutAtOnceWhenNothingIsPending() {
        let pipeline = CommitPipeline(durableSeq: 4)
        let delivery = pipeline.answer(.rejected(Rejection(opId: "b", code: .busy, message: "")), to: Self.member)
        #expect(Self.describe(delivery.map { [$0] } ?? []) == ["rejected b busy"])
        #expect(pipeline.nextBatch(board: "b") == nil, "a transient rejection is not written")
    }

    /// A noop (or a permanent rejection) is written, and told once it is durable: its
    /// opId's answer must survive a restart.
    @Test func writtenAnswersWaitForTheirBatch() {
        let pipeline = CommitPipeline(durableSeq: 4)
        #expect(pipeline.answer(.noop(Noop(opId: "n", seq: 4)), to: Self.member) == nil)
        let batch = pipeline.nextBatch(board: "b")
        #expect(batch == CommitBatch(board: "b", expectedSeq: 4, events: [], noops: [Noop(opId: "n", seq: 4)]))
        // Decided while that batch is written: it goes with the next one.
        #expect(pipeline.answer(.rejected(Rejection(opId: "g", code: .gone, message: "")), to: Self.member) == nil)
        #expect(Self.describe(pipeline.batchSucceeded()) == ["noop n"])
        #expect(pipeline.nextBatch(board: "b")?.rejections.map(\.opId) == ["g"])
        #expect(Self.describe(pipeline.batchSucceeded()) == ["rejected g gone"])
    }

    /// Events written together; an answer that arrived behind them waits for them.
    @Test func groupCommitReleasesInArrivalOrder() {
        let pipeline = CommitPipeline(durableSeq: 0)
        pipeline.add(Self.event(1), from: Self.member)
        let first = pipeline.nextBatch(board: "b")
        #expect(first == CommitBatch(board: "b", expectedSeq: 0, events: [Self.event(1)]))
        // While batch 1 is written: two more events and a noop between them.
        pipeline.add(Self.event(2), from: Self.member)
        #expect(pipeline.answer(.noop(Noop(opId: "n", seq: 2)), to: Self.member) == nil)
        pipeline.add(Self.event(3), from: Self.member)
        #expect(pipeline.nextBatch(board: "b") == nil, "one batch at a time")
        #expect(Self.describe(pipeline.batchSucceeded()) == ["broadcast 1"])
        #expect(pipeline.durableSeq == 1)
        let second = pipeline.nextBatch(board: "b")
        #expect(
            second
                == CommitBatch(
                    board: "b", expectedSeq: 1, events: [Self.event(2), Self.event(3)], noops: [Noop(opId: "n", seq: 2)]))
        #expect(Self.describe(pipeline.batchSucceeded()) == ["broadcast 2", "noop n", "broadcast 3"])
        #expect(!pipeline.hasUndurableEvents)
    }

    @Test func permanentRejectionsAndNoopsAreWrittenTransientRejectionsAreNot() {
        let pipeline = CommitPipeline(durableSeq: 7)
        _ = pipeline.answer(.rejected(Rejection(opId: "g", code: .gone, message: "")), to: Self.member)
        _ = pipeline.answer(.rejected(Rejection(opId: "l", code: .locked, message: "")), to: Self.member)
        _ = pipeline.answer(.noop(Noop(opId: "n", seq: 7)), to: Self.member)
        let batch = pipeline.nextBatch(board: "b")
        #expect(batch?.expectedSeq == 7)
        #expect(batch?.events == [])
        #expect(batch?.rejections.map(\.opId) == ["g"])
        #expect(batch?.noops == [Noop(opId: "n", seq: 7)])
    }

    /// A failed batch: every event not yet durable is answered `unavailable`, and so is a
    /// repeat of one of them and an answer not yet written (which the engine must then
    /// forget); other answers go out as they were.
    @Test func failedBatchAnswersUnavailable() {
        let pipeline = CommitPipeline(durableSeq: 0)
        pipeline.add(Self.event(1), from: Self.member)
        _ = pipeline.nextBatch(board: "b")
        _ = pipeline.batchSucceeded()
        pipeline.add(Self.event(2), from: Self.member)
        _ = pipeline.nextBatch(board: "b")
        #expect(pipeline.answer(.repeated(.committed(Self.event(2))), to: Self.member) == nil)
        #expect(pipeline.answer(.repeated(.committed(Self.event(1))), to: Self.member) == nil)
        pipeline.add(Self.event(3), from: Self.member)
        #expect(pipeline.answer(.noop(Noop(opId: "n", seq: 3)), to: Self.member) == nil)
        let failed = pipeline.batchFailed(reason: "disk full")
        #expect(
            Self.describe(failed.deliveries) == [
                "rejected op-2 unavailable", "rejected op-2 unavailable", "repeat 1", "rejected op-3 unavailable",
                "rejected n unavailable",
            ])
        #expect(failed.forgotten == ["n"])
        #expect(pipeline.durableSeq == 1)
        #expect(!pipeline.hasUndurableEvents)
        // The next event continues from the durable seq.
        pipeline.add(Self.event(2), from: Self.member)
        #expect(pipeline.nextBatch(board: "b")?.expectedSeq == 1)
    }

    /// What waits for everything queued so far to be told (a member's held writes) compares
    /// `outboxLeft` with `outboxEntered` as it was: entries leave as their batch is told, all
    /// at once when a batch fails, and an answer told at once never enters.
    @Test func theOutboxCountsWhatEnteredAndWhatLeft() {
        let pipeline = CommitPipeline(durableSeq: 0)
        _ = pipeline.answer(.rejected(Rejection(opId: "b", code: .busy, message: "")), to: Self.member)
        #expect(pipeline.outboxEntered == 0 && pipeline.outboxLeft == 0, "told at once, never queued")
        pipeline.add(Self.event(1), from: Self.member)
        _ = pipeline.nextBatch(board: "b")
        pipeline.add(Self.event(2), from: Self.member)
        #expect(pipeline.answer(.noop(Noop(opId: "n", seq: 2)), to: Self.member) == nil)
        #expect(pipeline.outboxEntered == 3 && pipeline.outboxLeft == 0)
        _ = pipeline.batchSucceeded()
        #expect(pipeline.outboxLeft == 1, "the first batch told event 1 only")
        _ = pipeline.nextBatch(board: "b")
        _ = pipeline.batchFailed(reason: "disk full")
        #expect(pipeline.outboxLeft == 3, "a failed batch tells everything it held")
    }
}

/// Another node's commits: a conflict hands every waiting operation back to be resolved
/// again, and followed events advance the pipeline between batches.
@Suite struct CommitPipelineFollowingTests {
    static func resolution(_ opId: String) -> Resolution {
        Resolution(request: OperationRequest(opId: opId, .lock(locked: true)), client: "c1", author: "ada", role: .owner, target: CommitPipelineTests.member)
    }

    @Test func aConflictHandsBackEveryOperationNotYetToldInArrivalOrder() {
        let pipeline = CommitPipeline(durableSeq: 3)
        pipeline.add(CommitPipelineTests.event(4), from: CommitPipelineTests.member, resolution: Self.resolution("op-4"))
        #expect(pipeline.nextBatch(board: "b")?.expectedSeq == 3)
        // Behind the batch: a noop that is written, another event, and an answer that cannot
        // be resolved again (no resolution: it goes out as it is).
        #expect(pipeline.answer(.noop(Noop(opId: "n", seq: 4)), to: CommitPipelineTests.member, resolution: Self.resolution("n")) == nil)
        pipeline.add(CommitPipelineTests.event(5), from: CommitPipelineTests.member, resolution: Self.resolution("op-5"))
        #expect(pipeline.answer(.rejected(Rejection(opId: "x", code: .invalid, message: "")), to: CommitPipelineTests.member) == nil)

        let conflicted = pipeline.batchConflicted()
        #expect(conflicted.resolutions.map(\.request.opId) == ["op-4", "n", "op-5"])
        #expect(conflicted.forgotten == ["n"], "the noop was decided on a board that never was")
        #expect(CommitPipelineTests.describe(conflicted.deliveries) == ["rejected x invalid"])
        #expect(pipeline.durableSeq == 3)
        #expect(pipeline.isIdle)
        #expect(pipeline.nextBatch(board: "b") == nil, "nothing is left to write")
    }

    @Test func followedEventsAreDurableAtOnceAndTheNextBatchExtendsThem() {
        let pipeline = CommitPipeline(durableSeq: 3)
        pipeline.follow(CommitPipelineTests.event(4))
        pipeline.follow(CommitPipelineTests.event(5))
        #expect(pipeline.durableSeq == 5)
        #expect(pipeline.isIdle)
        pipeline.add(CommitPipelineTests.event(6), from: CommitPipelineTests.member)
        #expect(!pipeline.isIdle)
        #expect(pipeline.nextBatch(board: "b") == CommitBatch(board: "b", expectedSeq: 5, events: [CommitPipelineTests.event(6)]))
    }
}
