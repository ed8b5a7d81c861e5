import CorkboardHub
import CorkboardModel
import CorkboardWire
import HubTestSupport
import TestSupport
import Testing

/// `MemberLink.holdWrites`: a member's transport holds its output while the member's operation
/// is with the room, and the room releases it once the answer is out, to every member: the
/// server's loop then writes the `committed` with the rest (see `IOLoop.holdOutput`).
@Suite(.threadsOfTheirOwn) struct HubHeldWritesTests {
    private static func isCommitted(_ text: String) -> Bool { text.contains(#""type":"committed""#) }
    private static func isRejected(_ text: String) -> Bool { text.contains(#""type":"rejected""#) }

    @Test func aCommittedMoveIsReleasedOnceEveryMemberWasSentIt() throws {
        let (_, ada, bob) = try HubFixture.pair()
        _ = try ada.commit(.move(sources: ["i1"], destination: Destination(collection: "done")))
        #expect(eventually { ada.link.holds.releasedAt.count == 1 })
        let holds = ada.link.holds
        #expect(holds.begun == 1, "one hold per operation")
        let toAda = try #require(ada.link.sendNumber(ofFirstText: Self.isCommitted))
        let toBob = try #require(bob.link.sendNumber(ofFirstText: Self.isCommitted))
        #expect(toAda <= holds.releasedAt[0] && toBob <= holds.releasedAt[0], "released before the committed was sent")
        #expect(bob.link.holds.begun == 0, "nothing held for the members that only receive")
    }

    @Test func aRejectedOperationIsReleasedAfterItsAnswer() throws {
        let (_, ada, _) = try HubFixture.pair()
        _ = try ada.reject(.move(sources: ["nowhere"], destination: Destination(collection: "done")))
        #expect(eventually { ada.link.holds.releasedAt.count == 1 })
        let toAda = try #require(ada.link.sendNumber(ofFirstText: Self.isRejected))
        #expect(toAda <= ada.link.holds.releasedAt[0])
    }

    @Test func manyOperationsInARowAreEachReleasedOnce() throws {
        let (_, ada, bob) = try HubFixture.pair()
        var opIds: [OperationID] = []
        for round in 0..<20 {
            opIds.append(try ada.send(.move(sources: ["i\(round % 8 + 1)"], destination: Destination(collection: round % 2 == 0 ? "done" : "todo"))))
        }
        for opId in opIds { _ = try ada.outcome(of: opId) }
        #expect(eventually { ada.link.holds.releasedAt.count == 20 })
        _ = try bob.sync()
        let holds = ada.link.holds
        #expect(holds.begun == 20 && holds.releasedAt.count == 20)
        #expect(holds.releasedAt == holds.releasedAt.sorted(), "released in the order they came")
    }
}
