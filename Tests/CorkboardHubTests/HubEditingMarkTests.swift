import CorkboardHub
import CorkboardModel
import CorkboardWire
import Dispatch
import HubTestSupport
import TestSupport
import Testing

/// Editing marks (docs/protocol.md#editing-marks): "Ada is editing i1" told to the others, and
/// its end told too — when Ada says so, marks another item, leaves, when the item is deleted,
/// and when a mark nobody sends again lapses (in the hub's time, which the test advances).
@Suite(.threadsOfTheirOwn) struct HubEditingMarkTests {
    static func pair(_ configure: @escaping (inout HubConfiguration) -> Void = { _ in }) throws
        -> (HubFixture, ManualClock, BoardTestClient, BoardTestClient)
    {
        let clock = ManualClock()
        let fixture = try HubFixture {
            $0.clock = clock
            configure(&$0)
        }
        let (ada, bob) = try fixture.joinAdaAndBob()
        return (fixture, clock, ada, bob)
    }

    /// The next editing mark `client` hears.
    static func nextMark(_ client: BoardTestClient) throws -> (client: ClientID, name: String, item: ItemID?) {
        let message = try client.waitFor(type: "editing")
        guard case .editing(let holder, let name, let item) = message else { throw HubTestFailure("not a mark: \(message)") }
        return (holder, name, item)
    }

    static func marks(in messages: [ServerMessage]) -> [ServerMessage] { messages.filter { $0.typeName == "editing" } }

    @Test func aMarkAndItsEndAreToldToTheOthersNotToItsHolder() throws {
        let (fixture, _, ada, bob) = try Self.pair()
        defer { withExtendedLifetime(fixture) {} }

        try ada.send(.editing(item: "i1"))
        let mark = try Self.nextMark(bob)
        #expect(mark.client == ada.clientID && mark.name == "Ada" && mark.item == "i1")
        // The same mark again keeps it alive and tells nobody.
        try ada.send(.editing(item: "i1"))
        #expect(Self.marks(in: try bob.sync()).isEmpty)

        // Another item replaces it; null ends it.
        try ada.send(.editing(item: "i2"))
        #expect(try Self.nextMark(bob).item == "i2")
        try ada.send(.editing(item: nil))
        let end = try Self.nextMark(bob)
        #expect(end.client == ada.clientID && end.item == nil)
        #expect(Self.marks(in: try ada.sync()).isEmpty, "the holder is not told its own marks")
    }

    @Test func aMemberWhoJoinsHearsTheMarksInProgressAfterItsWelcome() throws {
        let (fixture, _, ada, bob) = try Self.pair()
        defer { withExtendedLifetime(fixture) {} }
        try ada.send(.editing(item: "i3"))
        _ = try Self.nextMark(bob)

        let cleo = try fixture.join("Cleo")
        let mark = try Self.nextMark(cleo)
        #expect(mark.client == ada.clientID && mark.item == "i3")
    }

    @Test func aMarkEndsWhenItsHolderLeavesOrItsItemIsDeleted() throws {
        let (fixture, _, ada, bob) = try Self.pair()
        defer { withExtendedLifetime(fixture) {} }

        try ada.send(.editing(item: "i1"))
        _ = try Self.nextMark(bob)
        try bob.commit(.delete(items: ["i1"]))
        let ended = try Self.nextMark(bob)
        #expect(ended.client == ada.clientID && ended.item == nil, "the deleted item's mark ends")

        try bob.send(.editing(item: "i2"))
        _ = try Self.nextMark(ada)
        try bob.close()
        let left = try Self.nextMark(ada)
        #expect(left.client == bob.clientID && left.item == nil, "the leaver's mark ends before its peer.left")
        _ = try ada.waitFor(type: "peer.left")
    }

    /// `collection.remove` with `withItems` names no item, yet takes them: a mark on one ends.
    @Test func aMarkEndsWhenItsItemsColumnIsRemovedWithIt() throws {
        let (fixture, _, ada, bob) = try Self.pair()
        defer { withExtendedLifetime(fixture) {} }

        try ada.send(.editing(item: "i6"))
        _ = try Self.nextMark(bob)
        try bob.commit(.removeCollectionAndItems(collection: "done"))
        let ended = try Self.nextMark(bob)
        #expect(ended.client == ada.clientID && ended.item == nil, "the removed column's card's mark ends")
    }

    @Test func aMarkNobodySendsAgainLapsesAtTheTimeoutAndARepeatKeepsIt() throws {
        let (fixture, clock, ada, bob) = try Self.pair { $0.dragTimeout = .seconds(30) }
        defer { withExtendedLifetime(fixture) {} }
        try ada.send(.editing(item: "i1"))
        _ = try Self.nextMark(bob)
        #expect(try ada.sync().isEmpty)

        clock.advance(by: .seconds(20))
        try ada.send(.editing(item: "i1"))
        #expect(try ada.sync().isEmpty)
        // Past 30 s after the first mark: the repeat at 20 s keeps it.
        clock.advance(by: .seconds(10))
        #expect(Self.marks(in: try bob.sync()).isEmpty, "kept by its repeat")
        clock.advance(by: .nanoseconds(20 * 1_000_000_000 - 1))
        #expect(Self.marks(in: try bob.sync()).isEmpty, "not a nanosecond before 30 s after the repeat")
        clock.advance(by: .nanoseconds(1))
        let lapsed = try Self.nextMark(bob)
        #expect(lapsed.client == ada.clientID && lapsed.item == nil)
    }

    @Test func aMarkOnAnItemNotOnTheBoardIsInvalidAndChangesNothing() throws {
        let (fixture, _, ada, bob) = try Self.pair()
        defer { withExtendedLifetime(fixture) {} }
        try ada.send(.editing(item: "nope"))
        let error = try ada.waitFor(type: "error")
        guard case .error(let problem) = error else { throw HubTestFailure("not an error: \(error)") }
        #expect(problem.code == .invalid)
        #expect(Self.marks(in: try bob.sync()).isEmpty)
    }

    @Test func anObserverMayNotMark() throws {
        let (fixture, _, _, bob) = try Self.pair()
        defer { withExtendedLifetime(fixture) {} }
        let watcher = try fixture.join("Watcher", observe: true)
        try watcher.send(.editing(item: "i1"))
        let error = try watcher.waitFor(type: "error")
        guard case .error(let problem) = error else { throw HubTestFailure("not an error: \(error)") }
        #expect(problem.code == .forbidden)
        #expect(Self.marks(in: try bob.sync()).isEmpty)
    }
}
