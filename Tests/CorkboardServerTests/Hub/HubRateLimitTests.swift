import CorkboardHub
import CorkboardModel
import CorkboardServer
import CorkboardWire
import Foundation
import HubTestSupport
import TestSupport
import Testing

/// Per-connection rates, over both harnesses: operations beyond the rate are `rate-limited`
/// (transient, so the same opId succeeds later), presence beyond it is coalesced, never
/// refused. And HTTP callers' rates, by address, over sockets only.
@Suite(.threadsOfTheirOwn) struct HubRateLimitTests {
    /// Five operations a second, in bursts of five.
    static func tightOperations(_ configuration: inout HubConfiguration) {
        configuration.operationRate = RateLimit(perSecond: 5, burst: 5)
    }

    @Test(arguments: HubHarness.allCases)
    func operationsBeyondTheRateAreRateLimitedAndTheSameOpIdsSucceedLater(_ harness: HubHarness) throws {
        // The buckets fill by the hub's clock, which this test moves (the socket harness's hub
        // runs in this process too).
        let clock = ManualClock()
        let hub = try harness.start {
            Self.tightOperations(&$0)
            $0.clock = clock
        }
        let ada = try hub.join("Ada")
        let bob = try hub.join("Bob")
        let moves = (0..<8).map { _ in ada.request(.move(sources: ["i1"], destination: Destination(collection: "done"))) }
        for request in moves { try ada.send(.operation(request)) }
        // Refusals come straight from the connection, so they may overtake earlier commits.
        var answered: [OperationID: ServerMessage] = [:]
        while answered.count < moves.count {
            let message = try ada.nextMessage()
            if let opId = message.opId, moves.contains(where: { $0.opId == opId }) { answered[opId] = message }
        }
        let answers = try moves.map { try #require(answered[$0.opId]) }
        let limited = moves.indices.filter { if case .rejected(let r) = answers[$0] { r.code == .rateLimited } else { false } }
        #expect(limited.count >= 3, "8 operations at once against a burst of 5: \(answers)")
        for index in limited {
            #expect(answers[index].rejection?.message?.contains("5 operations per second") == true)
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
        try hub.expectAgreement([ada, bob])
    }

    @Test(arguments: HubHarness.allCases)
    func dragOverBeyondThePresenceRateIsCoalescedNeverRefused(_ harness: HubHarness) throws {
        let (hub, ada, bob) = try HubPresenceTests.pair(on: harness) { $0.presenceRate = RateLimit(perSecond: 10, burst: 2) }
        defer { withExtendedLifetime(hub) {} }
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

    // MARK: Over sockets only: HTTP callers

    /// Bursts of five operations, one more a second, by a clock the test moves: eight
    /// requests in a row pass the burst by three, however slowly a loaded machine sends them.
    static func tightHTTPOperations(_ clock: ManualClock) -> (inout ServerConfiguration) -> Void {
        { configuration in
            configuration.hub.operationRate = RateLimit(perSecond: 1, burst: 5)
            configuration.hub.clock = clock
        }
    }

    /// Socket only: HTTP callers are the server's (their budgets are by address, not by connection).
    @Test func httpCallersAreLimitedByAddressWith429AndRetryAfter() throws {
        let clock = ManualClock()
        let fixture = try HubFixture(configure: Self.tightHTTPOperations(clock))
        let requests = (0..<8).map { n in
            OperationRequest(opId: "http-\(n)", baseSeq: 0, .move(sources: ["i\(n % 5 + 1)"], destination: Destination(collection: "done")))
        }
        let responses = try requests.map { try fixture.api.perform("board", $0) }
        let limited = responses.indices.filter { responses[$0].status == 429 }
        #expect(limited == [5, 6, 7], "\(responses.map(\.status))")
        for index in limited {
            #expect(responses[index].http.header("Retry-After") == "1")
            let rejected = try #require(try responses[index].message().rejection, "429 without rejected body")
            #expect(rejected.code == .rateLimited && rejected.opId == requests[index].opId)
        }
        // Retried after the Retry-After they were given, each commits (one token a second).
        for index in limited {
            clock.advance(by: .seconds(1))
            let retried = try fixture.api.perform("board", requests[index])
            #expect(retried.status == 200, "\(retried)")
        }
    }
}
