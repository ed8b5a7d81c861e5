import CorkboardModel
import CorkboardWire
import Foundation
import TestSupport
import Testing

/// docs/protocol.md#resending-an-opid: sending an opId again returns its first outcome to the sender alone when that was
/// committed, a noop or a permanent rejection; after a transient rejection it is resolved anew. Over both harnesses,
/// and a resend over HTTP over sockets only.
@Suite(.threadsOfTheirOwn) struct HubRetryTests {
    @Test(arguments: HubHarness.allCases)
    func aCommittedOpIdRetriedFromANewConnectionIsNotAppliedAgain(_ harness: HubHarness) throws {
        let hub = try harness.start()
        let ada = try hub.join("Ada")
        let bob = try hub.join("Bob")
        let request = ada.request(.move(sources: ["i1"], destination: Destination(collection: "done", before: "i7")))
        let first = try #require(try ada.perform(request).committedEvent, "the move was not committed")
        try bob.waitUntilSeq(1)
        // The connection drops before Ada could be sure; she sends it again from a new one.
        ada.drop()
        let again = try hub.join("Ada")
        #expect(again.clientID != ada.clientID)
        #expect(try again.perform(request) == .committed(first), "the first outcome, with the original client and seq")
        // From the same connection once more, and with a different body under the same opId.
        #expect(try again.perform(request) == .committed(first))
        var altered = request
        altered.operation = .delete(items: ["i2"])
        #expect(try again.perform(altered) == .committed(first))

        // Bob heard none of it; nothing changed.
        #expect(try bob.syncCommitted().isEmpty)
        let document = try hub.expectAgreement([bob, again])
        #expect(document.seq == 1)
        #expect(document.board.ids("done") == ["i6", "i1", "i7", "i8"])
        #expect(document.board.ids("todo") == ["i2", "i3", "i4", "i5"])
    }

    @Test(arguments: HubHarness.allCases)
    func aPermanentRejectionReplayedReturnsTheSameRejection(_ harness: HubHarness) throws {
        let hub = try harness.start()
        let ada = try hub.join("Ada")
        // gone: no collection "later" yet.
        let goneRequest = ada.request(.move(sources: ["i1"], destination: Destination(collection: "later")))
        let gone = try #require(try ada.perform(goneRequest).rejection)
        #expect(gone.code == .gone)
        #expect(gone.opId == goneRequest.opId)
        // invalid: a base above the current seq (0).
        let invalidRequest = ada.request(.move(sources: ["i5"], destination: Destination(collection: "done")), baseSeq: 2)
        let invalid = try #require(try ada.perform(invalidRequest).rejection)
        #expect(invalid.code == .invalid)

        // Now "later" exists and the seq is 2: resolved anew both would commit; they get their first answers.
        try ada.commit(.addCollection(collection: "later", title: "Later", before: nil))
        try ada.commit(
            .insert(
                items: [Item(id: "n1", label: "1"), Item(id: "n2", label: "2"), Item(id: "n3", label: "3")],
                destination: Destination(collection: "todo")))
        let replayedGone = try #require(try ada.perform(goneRequest).rejection)
        #expect(replayedGone.code == .gone)
        #expect(replayedGone.opId == goneRequest.opId)
        let replayedInvalid = try #require(try ada.perform(invalidRequest).rejection)
        #expect(replayedInvalid.code == .invalid)
        #expect(replayedInvalid.opId == invalidRequest.opId)
        // From a new connection too.
        let other = try hub.join("Ada 2")
        #expect(try other.perform(goneRequest).rejection?.code == .gone)
        let document = try hub.expectAgreement([ada, other])
        #expect(document.seq == 2)
        #expect(document.board.ids("later").isEmpty)
    }

    @Test(arguments: HubHarness.allCases)
    func aTransientRejectionIsResolvedAnewAfterUnlock(_ harness: HubHarness) throws {
        let hub = try harness.start()
        let owner = try hub.join("Owner")
        let bob = try hub.join("Bob")
        try owner.commit(.lock(locked: true))
        try bob.waitUntilSeq(1)
        let request = bob.request(.move(sources: ["i1"], destination: Destination(collection: "done")))
        #expect(try bob.perform(request).rejection?.code == .locked)
        // Still locked: still locked.
        #expect(try bob.perform(request).rejection?.code == .locked)
        try owner.commit(.lock(locked: false))
        try bob.waitUntilSeq(2)
        let answer = try bob.perform(request)
        let event = try #require(answer.committedEvent, "after unlock the same opId should commit, got \(answer)")
        #expect(event.seq == 3)
        #expect(event.opId == request.opId)
        #expect(try owner.waitFor(type: "committed") == .committed(event))
        // And now it is final.
        #expect(try bob.perform(request) == .committed(event))
        try hub.expectAgreement([owner, bob])
    }

    @Test(arguments: HubHarness.allCases)
    func aNoopReplayedIsTheSameNoopEvenWhenTheBoardChanged(_ harness: HubHarness) throws {
        let hub = try harness.start()
        let ada = try hub.join("Ada")
        let request = ada.request(.move(sources: ["i2"], destination: Destination(collection: "todo", before: "i3")))
        #expect(try ada.perform(request) == .noop(Noop(opId: request.opId, seq: 0)))
        // i3 now stands before i2, so the same move would change something if it were resolved again.
        try ada.commit(.move(sources: ["i3"], destination: Destination(collection: "todo", before: "i2")))
        #expect(try ada.perform(request) == .noop(Noop(opId: request.opId, seq: 0)), "the first outcome")
        let document = try hub.expectAgreement([ada])
        #expect(document.seq == 1)
        #expect(document.board.ids("todo") == ["i1", "i3", "i2", "i4", "i5"])
    }

    // MARK: Over sockets only: HTTP

    /// Socket only: the resend comes over the server's HTTP API.
    @Test func aCommittedOpIdRetriedOverHTTPIsNotAppliedAgain() throws {
        let fixture = try HubFixture()
        let ada = try fixture.join("Ada")
        let request = ada.request(.delete(items: ["i3"]))
        let first = try #require(try ada.perform(request).committedEvent, "the delete was not committed")
        let resend = request
        let response = try fixture.api.perform("board", resend)
        #expect(response.status == 200)
        #expect(try response.message() == .committed(first))
        #expect(try ada.syncCommitted().isEmpty)
        #expect(try fixture.document().seq == 1)
    }
}
