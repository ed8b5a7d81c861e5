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

    @Test func answersGoOutAtOnceWhenNothingIsPending() {
        var pipeline = CommitPipeline(durableSeq: 4)
        let delivery = pipeline.answer(.noop(Noop(opId: "n", seq: 4)), to: Self.member)
        #expect(Self.describe(delivery.map { [$0] } ?? []) == ["noop n"])
        #expect(pipeline.nextBatch(board: "b") == nil)
    }

    /// Events written together; an answer that arrived behind them waits for them.
    @Test func groupCommitReleasesInArrivalOrder() {
        var pipeline = CommitPipeline(durableSeq: 0)
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
        #expect(second == CommitBatch(board: "b", expectedSeq: 1, events: [Self.event(2), Self.event(3)]))
        #expect(Self.describe(pipeline.batchSucceeded()) == ["broadcast 2", "noop n", "broadcast 3"])
        #expect(!pipeline.hasUndurableEvents)
    }

    @Test func permanentRejectionsAreWrittenTransientOnesAreNot() {
        var pipeline = CommitPipeline(durableSeq: 7)
        _ = pipeline.answer(.rejected(Rejection(opId: "g", code: .gone, message: "")), to: Self.member)
        _ = pipeline.answer(.rejected(Rejection(opId: "l", code: .locked, message: "")), to: Self.member)
        let batch = pipeline.nextBatch(board: "b")
        #expect(batch?.expectedSeq == 7)
        #expect(batch?.events == [])
        #expect(batch?.rejections.map(\.opId) == ["g"])
    }

    /// A failed batch: every event not yet durable is answered `unavailable`, and so is a
    /// repeat of one of them; other answers go out as they were.
    @Test func failedBatchAnswersUnavailable() {
        var pipeline = CommitPipeline(durableSeq: 0)
        pipeline.add(Self.event(1), from: Self.member)
        _ = pipeline.nextBatch(board: "b")
        _ = pipeline.batchSucceeded()
        pipeline.add(Self.event(2), from: Self.member)
        _ = pipeline.nextBatch(board: "b")
        #expect(pipeline.answer(.repeated(.committed(Self.event(2))), to: Self.member) == nil)
        #expect(pipeline.answer(.repeated(.committed(Self.event(1))), to: Self.member) == nil)
        pipeline.add(Self.event(3), from: Self.member)
        #expect(Self.describe(pipeline.batchFailed(reason: "disk full")) == [
            "rejected op-2 unavailable", "rejected op-2 unavailable", "repeat 1", "rejected op-3 unavailable",
        ])
        #expect(pipeline.durableSeq == 1)
        #expect(!pipeline.hasUndurableEvents)
        // The next event continues from the durable seq.
        pipeline.add(Self.event(2), from: Self.member)
        #expect(pipeline.nextBatch(board: "b")?.expectedSeq == 1)
    }
}
