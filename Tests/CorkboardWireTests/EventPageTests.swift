import CorkboardModel
import Foundation
import Testing

@testable import CorkboardWire

/// A page of `GET …/ops`: the events that fit the byte budget (at least one), `next` when
/// the board has more, and the same bytes as the `Codable` encoding of the page.
@Suite struct EventPageTests {
    static func event(_ seq: Int, labelBytes: Int = 10) -> CommittedEvent {
        CommittedEvent(
            seq: seq, opId: "c-\(seq)", client: "c1",
            op: .updateItem(item: "i1", label: String(repeating: "l", count: labelBytes), data: .unchanged), adjusted: false)
    }

    static func decode(_ body: [UInt8]) throws -> EventPage {
        try JSONDecoder().decode(EventPage.self, from: Data(body))
    }

    @Test func aPageThatHoldsEverythingHasNoNext() throws {
        let events = (1...5).map { Self.event($0) }
        let (body, count) = try EventPage.encodedPage(events, byteBudget: 1 << 20, more: false)
        #expect(count == 5)
        #expect(try Self.decode(body) == EventPage(events: events))
        #expect(body == Array(try WireFormat.encode(EventPage(events: events))))
    }

    @Test func morePointsNextAtTheLastEvent() throws {
        let events = (3...4).map { Self.event($0) }
        let (body, _) = try EventPage.encodedPage(events, byteBudget: 1 << 20, more: true)
        #expect(try Self.decode(body) == EventPage(events: events, next: 4))
        #expect(body == Array(try WireFormat.encode(EventPage(events: events, next: 4))))
    }

    @Test func theByteBudgetCutsThePage() throws {
        let events = (1...10).map { Self.event($0, labelBytes: 1000) }
        let (body, count) = try EventPage.encodedPage(events, byteBudget: 3500, more: false)
        #expect(count == 3)
        #expect(body.count <= 3500)
        #expect(try Self.decode(body) == EventPage(events: Array(events.prefix(3)), next: 3))
    }

    @Test func oneEventLargerThanTheBudgetStillMakesAPage() throws {
        let events = (1...2).map { Self.event($0, labelBytes: 5000) }
        let (body, count) = try EventPage.encodedPage(events, byteBudget: 1000, more: false)
        #expect(count == 1)
        #expect(try Self.decode(body) == EventPage(events: [events[0]], next: 1))
    }

    @Test func anEmptyPage() throws {
        let (body, count) = try EventPage.encodedPage([], byteBudget: 1000, more: false)
        #expect(count == 0)
        #expect(String(decoding: body, as: UTF8.self) == #"{"events":[]}"#)
    }
}
