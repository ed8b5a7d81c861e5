import CorkboardModel
import CorkboardStore
import TestSupport
import Testing

/// Every store keeps an event's `at` and `by` (docs/protocol.md#outcomes) and gives them back
/// wherever it gives the event back: a load, a read of the log, a conflict's catch-up. An event
/// without them (as stored before they were kept) comes back without them, not with zeros.
@Suite(.threadsOfTheirOwn) struct CommitStampContractTests {
    static let retention = LogRetention(retained: 100)

    /// Stamped events, with an author that needs escaping and the extreme times, and one without.
    static let events: [CommittedEvent] = [
        stamped(1, at: 1_795_575_010_123, by: "user-4821"),
        stamped(2, at: 0, by: #"Ada "the" \ Łovelace 😀"#),
        stamped(3, at: Limits.maximumSeq, by: ""),
        StoreLog.event(4),
    ]

    static func stamped(_ seq: Int, at: Int, by: String) -> CommittedEvent {
        var event = StoreLog.event(seq)
        event.at = at
        event.by = by
        return event
    }

    @Test(arguments: StoreFactory.all) func atAndByRoundTrip(_ factory: StoreFactory) throws {
        let opened = try factory.open(Self.retention)
        defer { opened.close() }
        let store = opened.store
        try store.create(Contract.board())
        try store.appendResult(CommitBatch(board: "b", expectedSeq: 0, events: Array(Self.events.prefix(2)))).get()
        try store.appendResult(CommitBatch(board: "b", expectedSeq: 2, events: Array(Self.events.suffix(2)))).get()
        #expect(try store.load("b").get()?.events == Self.events)
        #expect(try store.eventsResult("b", after: 1, limit: 2).get() == Array(Self.events[1...2]))
        let unstamped = try #require(try store.eventsResult("b", after: 3).get().first)
        #expect(unstamped.at == nil && unstamped.by == nil)
    }

    /// A node that lost the race reads the events that won (PostgreSQL hands them back with
    /// the conflict): stamps included.
    @Test(arguments: StoreFactory.all) func theEventsThatWonAConflictKeepTheirStamps(_ factory: StoreFactory) throws {
        let opened = try factory.open(Self.retention)
        defer { opened.close() }
        let store = opened.store
        try store.create(Contract.board())
        try store.appendResult(CommitBatch(board: "b", expectedSeq: 0, events: Self.events)).get()
        let loser = CommitBatch(board: "b", expectedSeq: 0, events: [Self.stamped(1, at: 7, by: "loser")])
        #expect(store.appendResult(loser).failure == .conflict(currentSeq: 4))
        #expect(try store.eventsResult("b", after: 0).get() == Self.events)
    }
}
