import CorkboardModel
import CorkboardWire
import Foundation
import TestSupport
import Testing

/// A member that keeps the board busy with its own large inserts and never reads a byte of
/// what comes back: it is dropped at its output bound, the others keep their pace and see
/// every event, and nothing it had committed is lost.
@Suite(.threadsOfTheirOwn) struct HostileSlowReaderTests {
    @Test func aFloodingClientThatNeverReadsIsDroppedAndNothingIsLost() async throws {
        try await offPool {
            // A bound the board's own traffic passes too: the server may stop taking the sloth's
            // inserts once its socket is full (8 or 9 of them got in on some runs), and then
            // Ada's moves alone must carry it over.
            // No liveness pings meanwhile: the server stops reading a client whose output is
            // blocked, so under a loaded parallel run (the sloth dropped only after 80–140 s)
            // its unanswered ping closed it first (40 s), as another reason than the bound.
            let fixture = try HubFixture {
                $0.maxPendingOutput = 128 * 1024
                $0.webSocket.pingInterval = .seconds(600)
            }
            let port = fixture.port
            let before = try Unharmed.seed(port: port)
            let ada = try fixture.join("Ada")
            let sloth = try fixture.join("Sloth")
            _ = try ada.waitFor(type: "peer.joined")
            sloth.ws.socket.setReceiveBuffer(4096)
            // The sloth sends up to 1,000 inserts of 12 KiB cards (12 MB for every member) at
            // 250 a second, a pace a reading client keeps up with, and reads nothing; its send
            // stops working once the server drops it.
            let label = String(repeating: "never reads ", count: 1024)
            let flood = Background { () -> Int in
                var sent = 0
                for index in 0..<1000 {
                    usleep(4000)
                    let request = OperationRequest(
                        opId: "sloth-\(index)", baseSeq: 0, .insert(items: [Item(id: "s\(index)", label: label)], destination: Destination(collection: "done")))
                    guard (try? sloth.ws.send(text: String(decoding: try WireFormat.encode(ClientMessage.operation(request)), as: UTF8.self))) != nil else {
                        break
                    }
                    sent += 1
                }
                return sent
            }
            // Ada keeps working and reading meanwhile; the sloth's peer.left ends the wait.
            var slothLeft = false
            var slowest = 0.0
            // Generous: a loaded fresh-clone run (the browser suites beside it) committed only 8
            // of the sloth's inserts in 40 s. The loop ends as soon as the sloth has left.
            let deadline = Date().addingTimeInterval(120)
            while !slothLeft && Date() < deadline {
                let started = Date()
                try Unharmed.commitAMove(ada)
                slowest = max(slowest, Date().timeIntervalSince(started))
                _ = try ada.sync()
                slothLeft = ada.log.contains { message in
                    if case .peerLeft(let client) = message { return client == sloth.clientID }
                    return false
                }
            }
            #expect(slothLeft, "the sloth is still a member; \(ada.events.filter { $0.opId.hasPrefix("sloth-") }.count) of its inserts committed")
            #expect(slowest < 2, "Ada's slowest move took \(slowest) s")
            let sent = try flood.wait()
            #expect(ada.log.allSatisfy { $0.typeName != "error" })
            // Inserts the server had read before the drop may still be committing: wait until the
            // board is still (the log and the board agree on the seq twice in a row).
            var events: [CommittedEvent] = []
            var lastSeq = -1
            #expect(
                try eventually(timeout: 5) {
                    events = try Unharmed.events(port: port, board: "board", token: nil)
                    let seq = try fixture.document().seq
                    defer { lastSeq = seq }
                    return seq == events.count && seq == lastSeq
                })
            // Whatever of the sloth's inserts was committed is on the board and in the log, in Ada's replica too.
            let document = try fixture.expectAgreement([ada])
            #expect(events.starts(with: before))
            #expect(events.count == document.seq)
            let slothItems = document.board.allItemIDs.filter { $0.hasPrefix("s") }
            #expect(slothItems.count == events.filter { $0.opId.hasPrefix("sloth-") }.count)
            #expect(slothItems.count <= sent)
            let metrics = try MetricsEndpointTests.scrape(fixture)
            #expect(metrics["corkboard_slow_consumers_dropped_total"] == 1)
            try Unharmed.expect(port: port, eventsBefore: events)
        }
    }
}
