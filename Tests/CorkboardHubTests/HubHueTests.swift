import CorkboardHub
import CorkboardModel
import CorkboardWire
import Foundation
import HubTestSupport
import TestSupport
import Testing

/// A member's chosen colour (docs/protocol.md#colours): `hello`'s `hue` is shown wherever
/// its name is — `welcome.peers`, `peer.joined`, a tick's `peers`, `peers.page` — and its own
/// `welcome` says it back; a member that chose none is listed exactly as before, without one.
@Suite(.threadsOfTheirOwn) struct HubHueTests {
    @Test func theWelcomeSaysTheOwnHueAndListsThePeersHues() throws {
        let fixture = try HubFixture()
        let ada = try fixture.join("Ada", hue: 200)
        #expect(ada.welcome.hue == 200)
        let bob = try fixture.join("Bob")
        #expect(bob.welcome.hue == nil)
        // Ada's, and no other: Bob chose none, so his welcome says none.
        #expect(bob.rawLog[0].components(separatedBy: #""hue""#).count == 2)
        #expect(bob.rawLog[0].contains(#""hue":200"#))
        let listedAda = try #require(bob.welcome.peers.first { $0.client == ada.clientID })
        #expect(listedAda.hue == 200)
        // A welcome lists the others: Cy's lists Bob, who chose none, without one.
        let cy = try fixture.join("Cy")
        let listedBob = try #require(cy.welcome.peers.first { $0.client == bob.clientID })
        #expect(listedBob.hue == nil)
        #expect(try #require(cy.welcome.peers.first { $0.client == ada.clientID }).hue == 200)
    }

    @Test func peerJoinedCarriesTheHueAndLeavesItOutWhenNoneWasChosen() throws {
        let fixture = try HubFixture()
        let ada = try fixture.join("Ada")
        _ = try fixture.join("Bob")
        #expect(try ada.waitFor(type: "peer.joined").isJoin(hue: nil))
        #expect(try !#require(ada.rawLog.last).contains(#""hue""#))
        let cy = try fixture.join("Cy", hue: 0)
        #expect(try ada.waitFor(type: "peer.joined") == .peerJoined(client: cy.clientID, name: "Cy", hue: 0))
        #expect(try #require(ada.rawLog.last).contains(#""hue":0"#))
    }

    @Test func aTickAndAPageListTheHue() throws {
        let clock = ManualClock()
        let fixture = try HubFixture.announcingPastTwoAtTheTick(on: clock)
        let ada = try fixture.join("Ada")
        let bob = try fixture.join("Bob")
        _ = try ada.waitFor(type: "peer.joined")
        let carol = try fixture.join("Carol", hue: 120)
        let dave = try fixture.join("Dave")
        clock.advance(by: .milliseconds(100))
        let joined = PeersChange(
            count: 4,
            joined: [PeerName(client: carol.clientID, name: "Carol", hue: 120), PeerName(client: dave.clientID, name: "Dave")],
            left: [], truncated: false)
        #expect(try ada.waitFor(type: "peers") == .peers(joined))

        try ada.send(.peersList(after: nil, limit: MembershipLimits.maximumPage))
        let page = try #require(try ada.waitFor(type: "peers.page").peersPage)
        #expect(
            page.peers == [
                Peer(client: ada.clientID, name: "Ada"), Peer(client: bob.clientID, name: "Bob"),
                Peer(client: carol.clientID, name: "Carol", hue: 120), Peer(client: dave.clientID, name: "Dave"),
            ])
    }

    @Test(arguments: [#"360"#, #"-1"#, #"7.5"#, #""red""#, #"false"#])
    func aHelloWithAnIllTypedHueIsRefused(_ hue: String) throws {
        let fixture = try HubFixture()
        let transport = try fixture.newConnection("raw")
        try transport.send(text: #"{"type":"hello","board":"\#(fixture.board.id)","name":"Ada","hue":\#(hue)}"#)
        guard case .text(let text) = try transport.receive() else { throw HubTestFailure("closed without an error") }
        guard case .error(let error) = try WireFormat.decodeServerMessage(Data(text.utf8)) else { throw HubTestFailure("not an error: \(text)") }
        #expect(error.code == .invalid)
    }
}

extension ServerMessage {
    fileprivate func isJoin(hue: Hue?) -> Bool {
        if case .peerJoined(_, _, let joinedHue) = self { joinedHue == hue } else { false }
    }
}
