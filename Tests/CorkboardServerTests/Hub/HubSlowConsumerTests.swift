import CorkboardModel
import CorkboardServer
import CorkboardWire
import Foundation
import TestSupport
import Testing

/// A member that stops reading is disconnected when its unread output reaches the bound,
/// and nobody else's delivery waits for it; it can come back with a resume.
@Suite(.threadsOfTheirOwn) struct HubSlowConsumerTests {
    @Test func aClientThatNeverReadsIsDroppedWhileOthersKeepTheirPace() throws {
        let fixture = try HubFixture { $0.maxPendingOutput = 256 * 1024 }
        let ada = try fixture.join("Ada")
        let bob = try fixture.join("Bob")
        let sloth = try fixture.join("Sloth")
        _ = try ada.waitFor(type: "peer.joined")
        _ = try ada.waitFor(type: "peer.joined")
        _ = try bob.waitFor(type: "peer.joined")
        // The sloth reads nothing from here on; a small receive buffer makes the kernel stop
        // taking its bytes early, so the server's queue for it grows.
        sloth.ws.socket.setReceiveBuffer(4096)

        // Cards with 12 KiB labels: a few hundred of them are several MiB for every member.
        let label = String(repeating: "slow consumer ", count: 12 * 1024 / 14)
        var slowest = 0.0
        var slothLeft = false
        var inserted = 0
        while inserted < 600 && !slothLeft {
            let started = Date()
            let item = Item(id: "big-\(inserted)", label: label)
            do { try ada.commit(.insert(items: [item], destination: Destination(collection: "done"))) } catch {
                throw HubTestFailure("ada at \(inserted): \(error)")
            }
            slowest = max(slowest, Date().timeIntervalSince(started))
            inserted += 1
            // Bob reads along, as a live client does; the sloth's peer.left ends the flood.
            for message in try bob.sync() {
                if case .peerLeft(let client) = message, client == sloth.clientID { slothLeft = true }
            }
        }
        #expect(slothLeft, "the sloth was still a member after \(inserted) large inserts")
        // Generous on purpose: this checks that nobody waits for the sloth's socket (which
        // would stall everyone for good), not how fast a debug build is.
        #expect(slowest < 2, "the slowest commit took \(slowest) s")
        try fixture.expectAgreement([ada, bob])

        let metrics = try MetricsEndpointTests.scrape(fixture)
        #expect(metrics["corkboard_slow_consumers_dropped_total"] == 1)
        #expect(metrics["corkboard_members"] == 2)

        // It can resume from where its replica was, and gets exactly what it missed.
        let back = try fixture.join("Sloth", resumeFrom: sloth)
        #expect(back.welcome.resumed)
        try back.waitUntilSeq(try fixture.document().seq)
        try fixture.expectAgreement([ada, bob, back])
    }
}
