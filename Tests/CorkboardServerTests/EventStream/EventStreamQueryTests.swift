import Testing

@testable import CorkboardServer

/// Where `GET /api/boards/{id}/events` starts: `Last-Event-ID` over `since`, `epoch` when
/// given, nothing else, each once, every seq within what a board can reach.
@Suite struct EventStreamQueryTests {
    static func parse(_ pairs: [(String, String)], lastEventID: String? = nil) -> Result<EventStreamQuery, QueryError> {
        EventStreamQuery.parse(pairs.map { (name: $0.0, value: $0.1) }, lastEventID: lastEventID)
    }

    @Test func withoutACursorTheStreamStartsFromTheBoard() {
        #expect(Self.parse([]) == .success(EventStreamQuery()))
        #expect(Self.parse([], lastEventID: "") == .success(EventStreamQuery()), "what an EventSource that saw no id sends")
    }

    @Test func theHeaderWinsOverSince() {
        #expect(Self.parse([("since", "3")]) == .success(EventStreamQuery(since: 3)))
        #expect(Self.parse([("since", "3")], lastEventID: " 42 ") == .success(EventStreamQuery(since: 42)))
        #expect(Self.parse([("since", "0"), ("epoch", "ff89")]) == .success(EventStreamQuery(since: 0, epoch: "ff89")))
        #expect(Self.parse([("since", "9007199254740991")]) == .success(EventStreamQuery(since: 9_007_199_254_740_991)))
    }

    @Test(
        arguments: [
            ([("since", "x")], nil, "since must be a seq (a whole number from 0 to 9007199254740991), not \"x\""),
            ([("since", "-1")], nil, "since must be a seq (a whole number from 0 to 9007199254740991), not \"-1\""),
            ([("since", "9007199254740992")], nil, "since must be a seq (a whole number from 0 to 9007199254740991), not \"9007199254740992\""),
            ([("since", "+5")], nil, "since must be a seq (a whole number from 0 to 9007199254740991), not \"+5\""),
            ([("since", "1"), ("since", "2")], nil, "since is given twice"),
            ([("epoch", "")], nil, "epoch must not be empty"),
            ([("limit", "5")], nil, "unknown query parameter \"limit\": GET …/events takes since and epoch"),
            ([], "seven", "Last-Event-ID must be a seq (a whole number from 0 to 9007199254740991), not \"seven\""),
        ] as [([(String, String)], String?, String)])
    func refusals(pairs: [(String, String)], lastEventID: String?, message: String) {
        #expect(Self.parse(pairs, lastEventID: lastEventID) == .failure(QueryError(message)))
    }
}
