import CorkboardModel
import CorkboardWire
import Testing

@testable import CorkboardHub

/// `WelcomePeerLists` and the roster's version it is keyed by: a list is written once per
/// version of the roster, and every join and leave makes a new version.
@Suite struct WelcomePeerListsTests {
    @Test func aListIsWrittenOncePerRosterVersion() {
        let lists = WelcomePeerLists()
        var writes = 0
        let write = { (name: String) -> () -> EncodedPeerList in
            {
                writes += 1
                return EncodedPeerList([Peer(client: "c1", name: name)])
            }
        }
        let first = lists.peers(version: 1, write: write("Ada"))
        #expect(lists.peers(version: 1, write: write("not asked")) == first)
        #expect(writes == 1)
        let second = lists.peers(version: 2, write: write("Bob"))
        #expect(second == EncodedPeerList([Peer(client: "c1", name: "Bob")]))
        #expect(writes == 2)
        // Only the latest is kept.
        #expect(lists.peers(version: 1, write: write("Ada again")) == EncodedPeerList([Peer(client: "c1", name: "Ada again")]))
        #expect(writes == 3)
    }

    @Test func everyJoinAndLeaveMakesANewVersion() {
        var roster = PeerRoster()
        var versions = [roster.version]
        let ada = ListedPeer(client: "c1", name: "Ada", order: 1)
        let bob = ListedPeer(client: "c2", name: "Bob", order: 2)
        roster.add(ada)
        versions.append(roster.version)
        roster.add(bob)
        versions.append(roster.version)
        roster.remove(ada)
        versions.append(roster.version)
        // A second leave of the same peer changes nothing.
        roster.remove(ada)
        #expect(roster.version == versions.last)
        #expect(Set(versions).count == versions.count)
    }
}
