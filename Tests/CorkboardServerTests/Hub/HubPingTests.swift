import CorkboardHub
import CorkboardWire
import Foundation
import HubTestSupport
import TestSupport
import Testing

/// docs/protocol.md#liveness: `ping` is answered `pong` with its id, over a real WebSocket;
/// a bad ping gets the usual `error` and the connection goes on; pings have their own rate
/// and take nothing from presence's.
@Suite(.threadsOfTheirOwn) struct HubPingTests {
    @Test func aPingIsAnsweredWithItsIdAndTheOthersHearNothing() throws {
        let fixture = try HubFixture()
        let watcher = try fixture.join("Watcher")
        let pinger = try fixture.join("Pinger")
        _ = try watcher.waitFor(type: "peer.joined")
        try pinger.send(json: #"{"type":"ping","id":"17"}"#)
        #expect(try pinger.nextMessage() == .pong(id: "17"))
        try pinger.send(.ping(id: "second"))
        #expect(try pinger.nextMessage() == .pong(id: "second"))
        #expect(pinger.rawLog.last == #"{"id":"second","type":"pong"}"#)
        #expect(try watcher.sync().isEmpty)
    }

    @Test(arguments: [
        (#"{"type":"ping"}"#, #"missing field "id""#),
        (#"{"type":"ping","id":7}"#, #"field "id" must be a string"#),
        (#"{"type":"ping","id":""}"#, "ping id must be 1…128 bytes of UTF-8 in Unicode NFC, without NUL"),
        (#"{"type":"ping","id":"\#(String(repeating: "x", count: 129))"}"#, "ping id must be 1…128 bytes of UTF-8 in Unicode NFC, without NUL"),
    ])
    func aBadPingGetsAnErrorAndTheConnectionGoesOn(ping: String, message: String) throws {
        let fixture = try HubFixture()
        let pinger = try fixture.join("Pinger")
        try pinger.send(json: ping)
        #expect(try pinger.nextMessage() == .error(ErrorMessage(code: .invalid, message: message)))
        try pinger.send(.ping(id: "after"))
        #expect(try pinger.nextMessage() == .pong(id: "after"))
    }

    @Test func pingsBeyondTheirRateAreAnsweredRateLimitedAndLeavePresenceAlone() throws {
        let fixture = try HubFixture { configuration in
            configuration.hub.pingRate = RateLimit(perSecond: 0.001, burst: 3)
            configuration.hub.presenceRate = RateLimit(perSecond: 0.001, burst: 1)
        }
        let watcher = try fixture.join("Watcher")
        let pinger = try fixture.join("Pinger")
        _ = try watcher.waitFor(type: "peer.joined")
        for index in 0..<3 {
            try pinger.send(.ping(id: "p\(index)"))
            #expect(try pinger.nextMessage() == .pong(id: "p\(index)"))
        }
        try pinger.send(.ping(id: "over"))
        #expect(try pinger.nextMessage() == .error(ErrorMessage(code: .rateLimited, message: "more than 0 pings per second")))
        // The one presence token is still there: the drag goes out to the others.
        let item = fixture.board.collections[0].items[0].id
        try pinger.send(.dragStart(items: [item]))
        guard case .drag(let update) = try watcher.waitFor(type: "drag") else { throw HubTestFailure("no drag") }
        #expect(update.client == pinger.clientID && update.items == [item])
    }
}
