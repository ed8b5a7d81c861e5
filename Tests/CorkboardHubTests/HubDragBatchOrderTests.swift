import CorkboardHub
import CorkboardModel
import CorkboardWire
import Dispatch
import Foundation
import HubTestSupport
import TestSupport
import Testing

/// The order in which a tick's drag batch is written (docs/protocol.md#6-presence-drag-state):
/// the members who get every change share one text per form, and it is written to them before
/// any dragger's batch of its own is encoded, so that what watchers wait for does not grow
/// with the number of draggers. Every board batches here and the test moves the hub's time.
@Suite(.threadsOfTheirOwn) struct HubDragBatchOrderTests {
    static let tick = DispatchTimeInterval.milliseconds(50)

    @Test func theWatchersSharedBatchIsWrittenBeforeTheDraggersOwnBatches() throws {
        let clock = ManualClock()
        let fixture = try HubFixture {
            $0.clock = clock
            $0.dragBatchAudience = 1
            $0.dragBroadcastInterval = Self.tick
        }
        defer { withExtendedLifetime(fixture) {} }
        let draggers = try (0..<4).map { try fixture.join("Dragger \($0)") }
        let watchers = try [fixture.join("Watcher"), fixture.join("Compact watcher", presence: .compact)]
        // A first drag goes out at once (the board was quiet); the tick after it holds every
        // dragger's start, so each dragger gets a batch of its own (the others' starts).
        try draggers[0].send(.dragStart(items: ["i1"]))
        _ = try draggers[0].sync()
        for (index, dragger) in draggers.enumerated().dropFirst() {
            try dragger.send(.dragStart(items: ["i\(index + 1)"]))
            _ = try dragger.sync()
        }
        try draggers[0].send(.dragOver(collection: "done", index: 0))
        _ = try draggers[0].sync()
        clock.advance(by: Self.tick)
        for client in draggers + watchers { _ = try client.sync() }

        let isTickBatch = { (text: String) in text.contains(#""type":"drags"#) && text.contains("Dragger 3") }
        let watcherWrites = try watchers.map { try #require($0.link.sendNumber(ofFirstText: isTickBatch), "\($0.name) got no batch") }
        // Dragger 3 is not told of its own start: its batch holds the others' changes.
        let ownWrites = try draggers.dropLast().map { try #require($0.link.sendNumber(ofFirstText: isTickBatch), "\($0.name) got no batch") }
        let lastOwn = try #require(draggers.last?.link.sendNumber { $0.contains(#""type":"drags"#) && $0.contains("Dragger 2") })
        #expect(watcherWrites.max()! < (ownWrites + [lastOwn]).min()!, "watchers \(watcherWrites), draggers \(ownWrites + [lastOwn])")
    }
}
