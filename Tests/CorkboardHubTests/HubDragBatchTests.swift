import CorkboardHub
import CorkboardModel
import CorkboardWire
import Foundation
import HubTestSupport
import TestSupport
import Testing

/// Drag presence to big audiences (docs/protocol.md#6-presence-drag-state): a board's drag
/// changes go out once per tick as one `drags` message, the latest placeholder of each drag
/// folded in, starts and clears kept in order. Here every board batches (`dragBatchAudience`
/// 1) and a tick is long (400 ms), so that what one tick holds does not depend on timing.
@Suite(.threadsOfTheirOwn) struct HubDragBatchTests {
    static func batching(_ configuration: inout HubConfiguration) {
        configuration.dragBatchAudience = 1
        configuration.dragBroadcastInterval = .milliseconds(400)
    }

    /// The batches `client` reads until one holds a change matching `last` (asked of each
    /// change once, in order), and every change they held.
    static func batches(
        of client: BoardTestClient, until last: (DragChange) -> Bool
    ) throws -> (messages: Int, changes: [DragChange]) {
        var messages = 0
        var changes: [DragChange] = []
        var found = false
        for _ in 0..<BoardTestClient.readBound where !found {
            let message = try client.nextMessage()
            #expect(message.dragUpdate == nil && message.dragOverTarget == nil && message.dragClear == nil, "a single \(message.typeName)")
            guard case .drags(let batch) = message else { continue }
            #expect(!batch.isEmpty, "an empty batch")
            messages += 1
            changes += batch
            found = batch.contains(where: last)
        }
        return (messages, changes)
    }

    static func isClear(_ change: DragChange) -> Bool {
        if case .cleared = change { true } else { false }
    }

    @Test func manyPlaceholderMovesInATickGoOutAsOneChangeWithTheLatest() throws {
        let (fixture, ada, bob) = try HubFixture.pair(Self.batching)
        defer { withExtendedLifetime(fixture) {} }
        try ada.send(.dragStart(items: ["i1"]))
        for index in 0..<30 { try ada.send(.dragOver(collection: "done", index: index % 3)) }
        try ada.send(.dragOver(collection: "todo", index: 2))
        let latest = DragTarget(collection: "todo", index: 2, before: "i4")
        let (messages, changes) = try Self.batches(of: bob) { $0 == .moved(client: ada.clientID, over: latest) || $0.startOver == latest }
        // The start goes at once (the board was quiet); the 31 moves fold into one change of
        // the next tick, or into the start itself when it was still waiting.
        #expect(messages <= 2, "\(messages) drags messages")
        #expect(changes.count <= 2, "\(changes)")
        #expect(changes.first.map { if case .started(let update) = $0 { update.items == ["i1"] } else { false } } == true)
        #expect(changes.allSatisfy { $0.client == ada.clientID })
        // The dragger is not told of its own drag.
        try ada.send(.dragEnd)
        _ = try Self.batches(of: bob, until: Self.isClear)
        #expect(try ada.sync().allSatisfy { $0.typeName != "drags" })
    }

    @Test func startsMovesAndClearsOfATickKeepTheirOrderAndNoClearIsLost() throws {
        let (fixture, ada, bob) = try HubFixture.pair(Self.batching)
        defer { withExtendedLifetime(fixture) {} }
        // Three drags of Ada in one burst, and one of Bob's between them.
        for round in 0..<3 {
            try ada.send(.dragStart(items: ["i\(round + 1)"]))
            try ada.send(.dragOver(collection: "done", index: round))
            try ada.send(.dragOver(collection: "done", index: 0))
            if round == 1 { try bob.send(.dragStart(items: ["i5"])) }
            try ada.send(.dragEnd)
        }
        var cleared = 0
        let (_, changes) = try Self.batches(of: bob) { change in
            if Self.isClear(change) { cleared += 1 }
            return cleared == 3
        }
        let kinds = changes.compactMap { change -> String? in
            switch change {
            case .started(let update): "start \(update.items[0])"
            case .moved: nil
            case .cleared(_, let reason): "clear \(reason.rawValue)"
            }
        }
        #expect(kinds == ["start i1", "clear cancel", "start i2", "clear cancel", "start i3", "clear cancel"])
        #expect(changes.allSatisfy { $0.client == ada.clientID }, "Bob hears nothing of his own drag")
        // Ada hears of Bob's drag, once.
        let (_, adaChanges) = try Self.batches(of: ada) { if case .started = $0 { true } else { false } }
        #expect(adaChanges.map(\.client) == [bob.clientID])
    }

    @Test func aWatcherWhoJoinsMidDragSeesItAndThenItsChanges() throws {
        let (fixture, ada, bob) = try HubFixture.pair(Self.batching)
        defer { withExtendedLifetime(fixture) {} }
        try ada.send(.dragStart(items: ["i1"]))
        try ada.send(.dragOver(collection: "done", index: 1))
        let placed = DragTarget(collection: "done", index: 1, before: "i7")
        _ = try Self.batches(of: bob) { $0 == .moved(client: ada.clientID, over: placed) || $0.startOver == placed }
        try ada.send(.dragOver(collection: "done", index: 2))
        // The room has taken that move (Ada's sync went through it after), which now waits
        // for the next tick: Carol joins meanwhile. Her welcome shows the drag as it is, and
        // that move does not come again; only what happens after her welcome does.
        _ = try ada.sync()
        let carol = try fixture.join("Carol")
        let shown = carol.welcome.peers.first { $0.client == ada.clientID }?.drag
        #expect(shown == DragState(items: ["i1"], over: DragTarget(collection: "done", index: 2, before: "i8")))
        try ada.send(.dragOver(collection: "todo", index: 0))
        let last = DragTarget(collection: "todo", index: 0, before: "i2")
        let (_, changes) = try Self.batches(of: carol) { $0 == .moved(client: ada.clientID, over: last) }
        #expect(changes == [.moved(client: ada.clientID, over: last)])
        try ada.send(.dragEnd)
        let (_, end) = try Self.batches(of: carol, until: Self.isClear)
        #expect(end.last == .cleared(client: ada.clientID, reason: .cancel))
    }

    @Test func aLeaverIsClearedBeforeItsPeerLeftEvenMidTick() throws {
        let (fixture, ada, bob) = try HubFixture.pair(Self.batching)
        defer { withExtendedLifetime(fixture) {} }
        try ada.send(.dragStart(items: ["i1"]))
        try ada.send(.dragOver(collection: "done", index: 1))
        ada.drop()
        var heard: [ServerMessage] = []
        for _ in 0..<BoardTestClient.readBound where heard.last != .peerLeft(client: ada.clientID) {
            heard.append(try bob.nextMessage())
        }
        let changes: [DragChange] = heard.flatMap { message -> [DragChange] in if case .drags(let batch) = message { batch } else { [] } }
        #expect(changes.last == .cleared(client: ada.clientID, reason: .left))
        #expect(heard.last == .peerLeft(client: ada.clientID))
        try bob.commit(.move(sources: ["i1"], destination: Destination(collection: "done")))
    }

    @Test func anExpiredDragIsToldToItsHolderInTheBatch() throws {
        let (fixture, ada, bob) = try HubFixture.pair {
            Self.batching(&$0)
            $0.maxDragDuration = .milliseconds(300)
        }
        defer { withExtendedLifetime(fixture) {} }
        try ada.send(.dragStart(items: ["i1"]))
        let (_, own) = try Self.batches(of: ada, until: Self.isClear)
        #expect(own == [.cleared(client: ada.clientID, reason: .expired)])
        let (_, seen) = try Self.batches(of: bob, until: Self.isClear)
        #expect(seen.last == .cleared(client: ada.clientID, reason: .expired))
    }

    @Test func smallBoardsKeepTheSingleMessages() throws {
        let (fixture, ada, bob) = try HubFixture.pair { $0.dragBatchAudience = 3 }
        defer { withExtendedLifetime(fixture) {} }
        try ada.send(.dragStart(items: ["i1"]))
        #expect(try bob.waitFor(type: "drag").dragUpdate?.items == ["i1"])
        let carol = try fixture.join("Carol")
        try ada.send(.dragOver(collection: "done", index: 0))
        let changes = try #require(try carol.waitFor(type: "drags").dragChanges)
        #expect(changes.last?.client == ada.clientID)
    }
}

extension DragChange {
    /// The placeholder of a start (a move folded into it), if it is one.
    var startOver: DragTarget? {
        if case .started(let update) = self { update.over } else { nil }
    }
}
