import CorkboardHub
import CorkboardModel
import CorkboardWire
import HubTestSupport
import TestSupport
import Testing

/// `welcome.name` (docs/protocol.md#3-joining): the name the others see the member by, which
/// is its `hello` name unless its token names it; a page compares the two to say so.
@Suite(.threadsOfTheirOwn) struct HubWelcomeNameTests {
    @Test func theWelcomeSaysTheHelloNameInOpenMode() throws {
        let fixture = try HubFixture()
        let ada = try fixture.join("Ada Lovelace")
        #expect(ada.welcome.name == "Ada Lovelace")
    }

    @Test func aTokenThatNamesItsHolderWinsInTheWelcomeAndForTheOthers() throws {
        let holder = TokenHolder(role: .editor, boards: .all, mayReadMetrics: false, subject: "u-7", name: "Grace Hopper")
        let fixture = try HubFixture(access: HubNameBytesTests.NamingPolicy(holder: holder))
        let bob = try fixture.join("Bob", token: "t-bob")
        let grace = try fixture.join("Ada", token: "t-grace")
        #expect(grace.welcome.name == "Grace Hopper")
        let joined = try bob.waitFor(type: "peer.joined")
        guard case .peerJoined(_, let name, _) = joined else { throw HubTestFailure("not a join: \(joined)") }
        #expect(name == "Grace Hopper")
    }
}
