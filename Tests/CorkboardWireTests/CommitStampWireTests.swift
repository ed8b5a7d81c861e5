import CorkboardModel
import Foundation
import Testing

@testable import CorkboardWire

/// A committed event's `at` and `by` on the wire (docs/protocol.md#outcomes): written by the one
/// event writer every carrier uses (the `committed` message, pages of `…/ops`), in sorted key
/// order, and absent, never null, on events stored before they were kept.
@Suite struct CommitStampWireTests {
    static let move = BoardOperation.lock(locked: true)

    @Test func aStampedEventCarriesAtAndByInKeyOrder() throws {
        let event = CommittedEvent(
            seq: 7, opId: "o7", client: "c3", op: Self.move, adjusted: false, stamp: CommitStamp(at: 1_795_575_010_123, by: "user-4821"))
        let text = try WireFormat.text(.committed(event))
        #expect(
            text
                == #"{"adjusted":false,"at":1795575010123,"by":"user-4821","client":"c3","op":{"locked":true,"type":"lock"},"opId":"o7","seq":7,"type":"committed"}"#
        )
        #expect(try WireFormat.decodeServerMessage(Data(text.utf8)) == .committed(event))
    }

    @Test func anEventWithoutThemOmitsBothKeys() throws {
        let event = CommittedEvent(seq: 7, opId: "o7", client: "c3", op: Self.move, adjusted: false)
        let text = try WireFormat.text(.committed(event))
        #expect(!text.contains(#""at""#) && !text.contains(#""by""#) && !text.contains("null"))
        let decoded = try WireFormat.decodeServerMessage(Data(text.utf8))
        guard case .committed(let back) = decoded else {
            Issue.record("not committed: \(decoded)")
            return
        }
        #expect(back.at == nil && back.by == nil)
    }

    @Test func anOpsPageCarriesThemPerEvent() throws {
        let events = [
            CommittedEvent(seq: 1, opId: "o1", client: "c1", op: Self.move, adjusted: false, at: 1_000, by: "ada"),
            CommittedEvent(seq: 2, opId: "o2", client: "c2", op: Self.move, adjusted: true),
        ]
        let page = try EventPage.encodedPage(events, byteBudget: 1 << 20, more: false)
        let text = String(decoding: page.body, as: UTF8.self)
        #expect(text.contains(#"{"adjusted":false,"at":1000,"by":"ada","client":"c1""#))
        #expect(text.contains(#"{"adjusted":true,"client":"c2""#))
        #expect(try JSONDecoder().decode(EventPage.self, from: Data(page.body)).events == events)
    }

    @Test func aClientDecodesAnEventFromAServerThatSendsThem() throws {
        let text = #"{"type":"committed","seq":3,"opId":"x","client":"c9","adjusted":false,"at":5,"by":"bot","op":{"type":"lock","locked":false}}"#
        #expect(
            try WireFormat.decodeServerMessage(Data(text.utf8))
                == .committed(CommittedEvent(seq: 3, opId: "x", client: "c9", op: .lock(locked: false), adjusted: false, at: 5, by: "bot")))
    }
}
