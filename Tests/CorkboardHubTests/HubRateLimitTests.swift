import CorkboardHub
import CorkboardModel
import CorkboardWire
import Foundation
import HubTestSupport
import TestSupport
import Testing

/// Per-connection rates, in-process: operations beyond the rate are `rate-limited`
/// (transient, so the same opId succeeds later), presence beyond it is coalesced, never refused.
@Suite(.threadsOfTheirOwn) struct HubRateLimitTests {
    /// Five operations a second, in bursts of five.
    static func tightOperations(_ configuration: inout HubConfiguration) {
        configuration.operationRate = RateLimit(perSecond: 5, burst: 5)
    }

    @Test func operationsBeyondTheRateAreRateLimitedAndTheSameOpIdsSucceedLater() throws {
        // The buckets fill by the hub's clock, which this test moves.
        let clock = ManualClock()
        let fixture = try HubFixture {
            Self.tightOperations(&$0)
            $0.clock = clock
        }
        let ada = try fixture.join("Ada")
        let bob = try fixture.join("Bob")
        let moves = (0..<8).map { _ in ada.request(.move(sources: ["i1"], destination: Destination(collection: "done"))) }
        for request in moves { try ada.send(.operation(request)) }
        // Refusals come straight from the connection, so they may overtake earlier commits.
        var answered: [OperationID: ServerMessage] = [:]
        while answered.count < moves.count {
            let message = try ada.nextMessage()
            if let opId = message.opId, moves.contains(where: { $0.opId == opId }) { answered[opId] = message }
        }
        let answers = moves.map { answered[$0.opId]! }
        let limited = moves.indices.filter { if case .rejected(let r) = answers[$0] { r.code == .rateLimited } else { false } }
        #expect(limited.count >= 3, "8 operations at once against a burst of 5: \(answers)")
        for index in limited {
            guard case .rejected(let rejected) = answers[index] else { continue }
            #expect(rejected.message?.contains("5 operations per second") == true)
        }
        // Bob's connection has its own budget.
        try bob.commit(.move(sources: ["i2"], destination: Destination(collection: "done")))

        // Transient: after the bucket refills, the same opIds are resolved anew (the first
        // commits, moving i1 to the end of done again; the rest are noops or commit too).
        clock.advance(by: .milliseconds(1_100))
        for index in limited {
            let retried = try ada.perform(moves[index])
            #expect(retried.typeName == "committed", "retry of \(moves[index].opId): \(retried)")
        }
        try fixture.expectAgreement([ada, bob])
    }

    @Test func dragOverBeyondThePresenceRateIsCoalescedNeverRefused() throws {
        let (fixture, ada, bob) = try HubPresenceTests.pair { $0.presenceRate = RateLimit(perSecond: 10, burst: 2) }
        defer { withExtendedLifetime(fixture) {} }
        try ada.send(.dragStart(items: ["i1"]))
        _ = try bob.waitFor(type: "drag")
        for index in 0..<300 { try ada.send(.dragOver(collection: "done", index: index % 4)) }
        try ada.send(.dragOver(collection: "todo", index: 2))
        var updates: [DragTarget] = []
        for _ in 0..<BoardTestClient.readBound where updates.last?.collection != "todo" {
            if let update = (try bob.nextMessage()).dragOverTarget { updates.append(update.over) }
        }
        #expect(updates.last == DragTarget(collection: "todo", index: 2, before: "i4"))
        // Nothing of that flood was refused or answered with an error.
        #expect(try ada.sync().allSatisfy { $0.typeName != "rejected" && $0.typeName != "error" })
        // The drop still reaches everyone in order after the coalesced updates.
        try ada.commit(.move(sources: ["i1"], destination: Destination(collection: "todo", before: "i4")))
        let cleared = try bob.waitFor(type: "drag.cleared")
        #expect(cleared.dragClear.map { $0 == (ada.clientID, .drop) } == true)
        #expect(try bob.sync().allSatisfy { ($0).dragUpdate == nil && ($0).dragOverTarget == nil })
    }
}
