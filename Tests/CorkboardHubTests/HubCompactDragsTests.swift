import CorkboardHub
import CorkboardModel
import CorkboardWire
import Dispatch
import Foundation
import HubTestSupport
import TestSupport
import Testing

/// Compact presence (docs/protocol.md#compact-drags): members whose `hello` asked for
/// `"presence":"compact"` get each tick's drag batch as `drags.compact`, the others as today's
/// `drags`, byte for byte; both decode into the same changes. Every board batches here
/// (`dragBatchAudience` 1) and the test moves the hub's time, so each tick holds exactly what
/// the test queued before advancing it.
@Suite(.threadsOfTheirOwn) struct HubCompactDragsTests {
    static let tick = DispatchTimeInterval.milliseconds(50)

    static func fixture() throws -> (HubFixture, ManualClock) {
        let clock = ManualClock()
        let fixture = try HubFixture {
            $0.clock = clock
            $0.dragBatchAudience = 1
            $0.dragBroadcastInterval = Self.tick
        }
        return (fixture, clock)
    }

    /// The drag batches `client` has received by now, as their texts (a round trip through
    /// the room first, so everything sent before is read).
    static func batchTexts(of client: BoardTestClient) throws -> [String] {
        let start = client.rawLog.count
        _ = try client.sync()
        return client.rawLog[start...].filter { $0.contains(#""type":"drags"#) }
    }

    static func changes(in texts: [String]) throws -> [DragChange] {
        try texts.flatMap { try #require(try WireFormat.decodeServerMessage(Data($0.utf8)).dragChanges, "not a batch: \($0)") }
    }

    /// Sends `message` and waits until the room has taken it.
    static func send(_ message: ClientMessage, from client: BoardTestClient) throws {
        try client.send(message)
        _ = try client.sync()
    }

    @Test func compactAndFullMembersHearTheSameChangesEachInItsOwnForm() throws {
        let (fixture, clock) = try Self.fixture()
        defer { withExtendedLifetime(fixture) {} }
        let ada = try fixture.join("Ada")
        let bob = try fixture.join("Bob", presence: .compact)
        let carol = try fixture.join("Carol")
        try Self.send(.dragStart(items: ["i1"]), from: ada)
        try Self.send(.dragOver(collection: "done", index: 1), from: ada)
        clock.advance(by: Self.tick)
        try Self.send(.dragOver(collection: "todo", index: 0), from: ada)
        clock.advance(by: Self.tick)
        try Self.send(.dragEnd, from: ada)
        clock.advance(by: Self.tick)

        let compact = try Self.batchTexts(of: bob)
        let full = try Self.batchTexts(of: carol)
        let expected: [DragChange] = [
            .started(DragUpdate(client: ada.clientID, name: "Ada", items: ["i1"], over: DragTarget(collection: "done", index: 1, before: "i7"))),
            .moved(client: ada.clientID, over: DragTarget(collection: "todo", index: 0, before: "i2")),
            .cleared(client: ada.clientID, reason: .cancel),
        ]
        #expect(try Self.changes(in: compact) == expected)
        #expect(try Self.changes(in: full) == expected)
        // One batch a tick, each the bytes its form has for it: today's for the long form.
        #expect(compact == expected.map { CompactDrags.text([$0]) })
        #expect(full == (try expected.map { try WireFormat.text(.drags([$0])) }))
        #expect(compact.reduce(0) { $0 + $1.utf8.count } < full.reduce(0) { $0 + $1.utf8.count })
        // The dragger hears nothing of its own drag, in either form.
        #expect(try Self.batchTexts(of: ada).isEmpty)
    }

    @Test func aCompactDraggerIsToldOfTheOthersInCompactAndNotOfItself() throws {
        let (fixture, clock) = try Self.fixture()
        defer { withExtendedLifetime(fixture) {} }
        let ada = try fixture.join("Ada", presence: .compact)
        let bob = try fixture.join("Bob", presence: .compact)
        try Self.send(.dragStart(items: ["i1"]), from: ada)
        try Self.send(.dragStart(items: ["i6"]), from: bob)
        clock.advance(by: Self.tick)
        let toAda = try Self.batchTexts(of: ada)
        let toBob = try Self.batchTexts(of: bob)
        #expect(toAda == [CompactDrags.text([.started(DragUpdate(client: bob.clientID, name: "Bob", items: ["i6"], over: nil))])])
        #expect(toBob == [CompactDrags.text([.started(DragUpdate(client: ada.clientID, name: "Ada", items: ["i1"], over: nil))])])
    }

    @Test func aCompactMemberWhoJoinsMidTickHearsOnlyWhatCameAfterItsWelcome() throws {
        let (fixture, clock) = try Self.fixture()
        defer { withExtendedLifetime(fixture) {} }
        let ada = try fixture.join("Ada")
        let bob = try fixture.join("Bob", presence: .compact)
        let carol = try fixture.join("Carol")
        try Self.send(.dragStart(items: ["i1"]), from: ada)
        clock.advance(by: Self.tick)
        // A move waits for the next tick when Dave joins: his welcome shows it, and only the
        // clear after it comes to him, in a batch of his own, compact as he asked. (He observes:
        // a peer's join would send the waiting batch before its `peer.joined`.)
        try Self.send(.dragOver(collection: "done", index: 2), from: ada)
        let dave = try fixture.join("Dave", observe: true, presence: .compact)
        let placed = DragTarget(collection: "done", index: 2, before: "i8")
        #expect(dave.welcome.peers.first { $0.client == ada.clientID }?.drag == DragState(items: ["i1"], over: placed))
        try Self.send(.dragEnd, from: ada)
        clock.advance(by: Self.tick)

        let tick: [DragChange] = [.moved(client: ada.clientID, over: placed), .cleared(client: ada.clientID, reason: .cancel)]
        let toDave = try Self.batchTexts(of: dave)
        let toBob = try Self.batchTexts(of: bob)
        let toCarol = try Self.batchTexts(of: carol)
        #expect(toDave == [CompactDrags.text([.cleared(client: ada.clientID, reason: .cancel)])])
        #expect(toBob.last == CompactDrags.text(tick))
        #expect(toCarol.last == (try WireFormat.text(.drags(tick))))
    }
}
