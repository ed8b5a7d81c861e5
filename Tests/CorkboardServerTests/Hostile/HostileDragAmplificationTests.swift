import CorkboardHub
import CorkboardModel
import CorkboardServer
import CorkboardWire
import Foundation
import TestSupport
import Testing

/// A dragger whose presence would cost every other member far more than it costs itself: a
/// drag of a thousand long ids, then `drag.over` as fast as it likes, or drag.start/drag.end
/// pairs as fast as it likes. The others receive the item list once and small placeholder
/// moves, read slowly without being dropped, and no lease outlives the flood.
@Suite(.threadsOfTheirOwn) struct HostileDragAmplificationTests {
    /// 1,500 items with 128-byte ids in "a" and 500 in "b" (the board limit is 10,000).
    /// Placeholder moves the dragger sends, 4 ms apart: three seconds' worth at full speed.
    static let floodSize = 750

    static let board: Board = {
        func items(_ prefix: String, _ count: Int) -> [Item] {
            (0..<count).map { index in
                let id = "\(prefix)-\(index)-"
                return Item(id: id + String(repeating: "x", count: Limits.maximumIDBytes - id.utf8.count), label: "\(prefix)\(index)")
            }
        }
        return Board(
            id: "board", title: "Long ids",
            collections: [
                BoardCollection(id: "a", title: "A", items: items("a", 1_500)),
                BoardCollection(id: "b", title: "B", items: items("b", 500)),
            ])
    }()

    /// What one slow member read while the dragger went on.
    struct Reading: Sendable {
        var bytes = 0
        var drags = 0
        var closed = false
        var sawTheClear = false
    }

    /// Reads whole frames at most `bytesPerSecond` on average until the dragger's
    /// `drag.cleared`, the end of the connection, or `deadline`.
    static func readSlowly(_ client: BoardTestClient, dragger: ClientID, bytesPerSecond: Double, deadline: Date) throws -> Reading {
        var reading = Reading()
        let started = Date()
        for _ in 0..<BoardTestClient.readBound where Date() < deadline {
            guard let frame = try client.ws.receiveFrame(), frame.opcode != .close else {
                reading.closed = true
                return reading
            }
            reading.bytes += frame.payload.count
            let text = String(decoding: frame.payload, as: UTF8.self)
            if text.contains(#""type":"drag""#) { reading.drags += 1 }
            if text.contains(#""type":"drag.cleared""#) && text.contains(#""client":"\#(dragger)""#) {
                reading.sawTheClear = true
                return reading
            }
            let due = Double(reading.bytes) / bytesPerSecond - Date().timeIntervalSince(started)
            if due > 0 { Thread.sleep(forTimeInterval: due) }
        }
        return reading
    }

    /// In single messages, and in the `drags` batches of a big audience (here from 1 member).
    @Test(arguments: [false, true])
    func aThousandItemDragWithAFloodOfDragOverCostsEachMemberItsItemsOnce(batched: Bool) async throws {
        try await offPool {
            // A 1 MiB output bound: what each member was sent before (the whole item list 20
            // times a second, 2.6 MB/s) overflows it within half a second.
            let fixture = try HubFixture(board: Self.board) {
                $0.maxPendingOutput = 1 << 20
                $0.hub.dragBatchAudience = batched ? 1 : nil
            }
            let readers = try (0..<4).map { try fixture.join("Reader \($0)") }
            let dragger = try fixture.join("Dragger")
            for reader in readers {
                _ = try reader.waitFor("the dragger's arrival") { $0 == .peerJoined(client: dragger.clientID, name: "Dragger") }
                reader.ws.socket.setReceiveBuffer(4096)
                reader.ws.setReceiveTimeout(10)
            }
            // 100 KB/s: 4 % of what a paced drag carrying its whole list needed.
            let bytesPerSecond = 100_000.0
            let deadline = Date().addingTimeInterval(60)
            let readings = readers.map { reader in
                let client = UncheckedSendable(reader)
                return Background { try Self.readSlowly(client.value, dragger: dragger.clientID, bytesPerSecond: bytesPerSecond, deadline: deadline) }
            }
            let dragged = Array(Self.board.ids("a").prefix(1_000))
            try dragger.send(.dragStart(items: dragged))
            // A flood of a given size, not of a given time: a loaded machine sends it more
            // slowly (at best 250 a second), and the bound below counts the time it took.
            let floodStarted = Date()
            for index in 0..<Self.floodSize {
                try dragger.send(.dragOver(collection: "b", index: index % 400))
                Thread.sleep(forTimeInterval: 0.004)
            }
            let floodSeconds = Date().timeIntervalSince(floodStarted)
            try dragger.send(.dragEnd)
            // One list of ids (its `drag`), at most 20 placeholder moves a second of under 400
            // bytes each (one per tick in a batch), and a few small messages (the clear).
            let listBytes = try WireFormat.encode(
                ServerMessage.drag(
                    DragUpdate(
                        client: dragger.clientID, name: "Dragger", items: dragged, over: nil))
            ).count
            let bound = listBytes + Int(floodSeconds * 20 + 10) * 400 + 4_096
            for (index, reading) in try readings.map({ try $0.wait(timeout: 90) }).enumerated() {
                #expect(!reading.closed && reading.sawTheClear, "reader \(index) was dropped (or never saw the end): \(reading)")
                #expect(reading.drags == 1, "reader \(index) received the item list \(reading.drags) times")
                #expect(reading.bytes <= bound, "reader \(index) received \(reading.bytes) bytes, more than \(bound)")
            }
            let metrics = try MetricsEndpointTests.scrape(fixture)
            #expect(metrics["corkboard_slow_consumers_dropped_total"] == 0)
            // The items are free again.
            let witness = try fixture.join("Witness")
            try witness.commit(.move(sources: [dragged[0]], destination: Destination(collection: "b")))
        }
    }

    @Test func dragStartAndEndPairsBeyondThePresenceRateAreRefusedAndLeaveNoLease() async throws {
        try await offPool {
            let (fixture, ada, bob) = try HubPresenceTests.pair { $0.hub.presenceRate = RateLimit(perSecond: 20, burst: 20) }
            let started = Date()
            let pairs = 300
            for _ in 0..<pairs {
                try ada.send(.dragStart(items: ["i1"]))
                try ada.send(.dragEnd)
            }
            // Everything Ada sent is handled once her own answers are in, and Bob's after his.
            let answers = try ada.sync()
            let elapsed = Date().timeIntervalSince(started)
            let heard = try bob.sync()
            let refused = answers.compactMap(\.rejection).filter { $0.ref == "drag.start" }
            #expect(refused.allSatisfy { $0.code == .rateLimited && $0.message?.contains("per second") == true })
            let shown = heard.filter { ($0).dragUpdate?.client == ada.clientID }.count
            let cleared = heard.filter { ($0).dragClear?.0 == ada.clientID }.count
            // Every start is either shown (and cleared once) or refused; at most the rate's worth are shown.
            #expect(shown + refused.count == pairs, "\(shown) shown + \(refused.count) refused of \(pairs)")
            #expect(shown == cleared, "\(shown) drags shown, \(cleared) cleared")
            #expect(Double(shown) <= 20 + 20 * elapsed + 1, "\(shown) drags shown in \(elapsed) s at 20 a second")
            #expect(!answers.contains { $0.typeName == "error" })
            // No lease is left: Bob moves the item.
            try bob.commit(.move(sources: ["i1"], destination: Destination(collection: "done")))
            withExtendedLifetime(fixture) {}
        }
    }
}
