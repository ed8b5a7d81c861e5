import CorkboardHub
import CorkboardModel
import CorkboardWire
import Dispatch
import HubTestSupport
import TestSupport
import Testing

/// The deadlines of drag presence (docs/protocol.md#6-presence-drag-state) in the hub's time,
/// which the test advances (`ManualClock`): a drag nobody keeps alive ends at its timeout, one
/// kept alive by `drag.over` at `maxDragDuration`, and its holder's cool-down ends exactly
/// when it should — each checked a nanosecond before and at its deadline, with no sleep.
@Suite(.threadsOfTheirOwn) struct HubDragTimeTests {
    static let nanosecond = DispatchTimeInterval.nanoseconds(1)

    /// `seconds` less one nanosecond: the last instant before a deadline that far away.
    static func justBefore(seconds: Int) -> DispatchTimeInterval { .nanoseconds(seconds * 1_000_000_000 - 1) }

    /// Ada and Bob on the standard board, on a hub whose time the test moves.
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

    /// Ada starts dragging i1, and the room has finished starting it (its timer is set).
    static func startDrag(_ ada: BoardTestClient, seenBy bob: BoardTestClient) throws {
        try ada.send(.dragStart(items: ["i1"]))
        _ = try bob.waitFor(type: "drag")
        #expect(try ada.sync().isEmpty)
    }

    static func move(_ item: ItemID) -> RequestedOperation { .move(sources: [item], destination: Destination(collection: "done")) }

    static func rejection(_ message: ServerMessage) -> Rejected? {
        if case .rejected(let rejected) = message { rejected } else { nil }
    }

    @Test func aDragNobodyKeepsAliveEndsForEveryoneAtItsTimeoutAndItsItemsAreFree() throws {
        let (fixture, clock, ada, bob) = try Self.pair { $0.dragTimeout = .seconds(30) }
        defer { withExtendedLifetime(fixture) {} }
        try Self.startDrag(ada, seenBy: bob)

        clock.advance(by: Self.justBefore(seconds: 30))
        #expect(try bob.sync().allSatisfy { $0.dragClear == nil }, "not a nanosecond before the timeout")
        #expect(try bob.reject(Self.move("i1")).code == .busy, "still leased")

        clock.advance(by: Self.nanosecond)
        #expect((try bob.waitFor(type: "drag.cleared")).dragClear.map { $0 == (ada.clientID, .timeout) } == true)
        // A holder who has been still is not told (it may still drop with a move).
        #expect(try ada.sync().allSatisfy { $0.dragClear == nil })
        // Its items can be dragged again, by anyone.
        try bob.send(.dragStart(items: ["i1"]))
        #expect(try ada.waitFor(type: "drag").dragUpdate?.client == bob.clientID)
    }

    @Test func aDragKeptAliveByDragOverOutlivesTheTimeoutUntilItsLastUpdateIsThatOld() throws {
        let (fixture, clock, ada, bob) = try Self.pair { $0.dragTimeout = .seconds(30) }
        defer { withExtendedLifetime(fixture) {} }
        try Self.startDrag(ada, seenBy: bob)

        clock.advance(by: .seconds(20))
        try ada.send(.dragOver(collection: "done", index: 0))
        #expect(try bob.waitFor(type: "drag.over").dragOverTarget?.client == ada.clientID)
        // Past the first deadline (30 s after the start): the update at 20 s keeps it.
        clock.advance(by: .seconds(10))
        #expect(try bob.sync().allSatisfy { $0.dragClear == nil }, "kept alive by its drag.over")
        clock.advance(by: Self.justBefore(seconds: 20))
        #expect(try bob.sync().allSatisfy { $0.dragClear == nil }, "not before 30 s after the last update")
        clock.advance(by: Self.nanosecond)
        #expect((try bob.waitFor(type: "drag.cleared")).dragClear.map { $0 == (ada.clientID, .timeout) } == true)
    }

    /// A drag held past `maxDragDuration`, however lively, ends `expired` for its holder too;
    /// its items are free for the others at once and for the holder `leaseCooldown` later.
    @Test func aLeaseLapsesAtMaxDragDurationAndItsCoolDownExactlyAfterIt() throws {
        let (fixture, clock, ada, bob) = try Self.pair {
            $0.dragTimeout = .seconds(30)
            $0.maxDragDuration = .seconds(120)
            $0.leaseCooldown = .seconds(10)
        }
        defer { withExtendedLifetime(fixture) {} }
        try Self.startDrag(ada, seenBy: bob)
        // Kept alive every 20 s, so only the duration ends it.
        for step in 1...5 {
            clock.advance(by: .seconds(20))
            try ada.send(.dragOver(collection: "done", index: step % 2))
            _ = try bob.waitFor(type: "drag.over")
        }
        clock.advance(by: Self.justBefore(seconds: 20))
        #expect(try bob.reject(Self.move("i1")).code == .busy, "leased until the last nanosecond")
        #expect(try ada.sync().allSatisfy { $0.dragClear == nil })

        clock.advance(by: Self.nanosecond)
        #expect((try ada.waitFor(type: "drag.cleared")).dragClear.map { $0 == (ada.clientID, .expired) } == true)
        #expect((try bob.waitFor(type: "drag.cleared")).dragClear.map { $0 == (ada.clientID, .expired) } == true)
        try bob.commit(Self.move("i1"))

        // The holder may not pick it up again for the cool-down, to the nanosecond.
        try ada.send(.dragStart(items: ["i1"]))
        #expect(try #require(Self.rejection(try ada.waitFor(type: "rejected"))).code == .rateLimited)
        clock.advance(by: Self.justBefore(seconds: 10))
        try ada.send(.dragStart(items: ["i1"]))
        #expect(try #require(Self.rejection(try ada.waitFor(type: "rejected"))).code == .rateLimited)
        clock.advance(by: Self.nanosecond)
        try ada.send(.dragStart(items: ["i1"]))
        #expect(try bob.waitFor(type: "drag").dragUpdate?.client == ada.clientID)
    }

    /// 500 placeholder moves 2 ms apart: the others get one per 50 ms pacing slot (the
    /// latest of it), and the very last one after its slot.
    @Test func dragOverIsPacedToOneBroadcastPerIntervalAndTheLatestArrives() throws {
        let (fixture, clock, ada, bob) = try Self.pair {
            $0.dragBroadcastInterval = .milliseconds(50)
            // The connection's own coalescing is HubRateLimitTests'; here only the room paces.
            $0.presenceRate = nil
        }
        defer { withExtendedLifetime(fixture) {} }
        try Self.startDrag(ada, seenBy: bob)
        for index in 0..<500 {
            try ada.send(.dragOver(collection: "done", index: index % 4))
            #expect(try ada.sync().isEmpty)
            clock.advance(by: .milliseconds(2))
        }
        try ada.send(.dragOver(collection: "todo", index: 2))
        #expect(try ada.sync().isEmpty)
        // Not before its slot (50 ms after the broadcast at 1,000 ms).
        #expect(try bob.sync().filter { $0.dragOverTarget?.over.collection == "todo" }.isEmpty == true)
        clock.advance(by: .milliseconds(50))
        var updates: [DragTarget] = []
        for _ in 0..<BoardTestClient.readBound where updates.last?.collection != "todo" {
            if let update = (try bob.nextMessage()).dragOverTarget { updates.append(update.over) }
        }
        let previous = bob.log.compactMap { $0.dragOverTarget?.over }
        // One per slot from 50 ms to 1,000 ms, then the last.
        #expect(previous.count == 21, "\(previous.count) drag.over for 1,050 ms")
        #expect(updates.last == DragTarget(collection: "todo", index: 2, before: "i4"))
    }
}
