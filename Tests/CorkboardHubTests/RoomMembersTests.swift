import CorkboardModel
import Dispatch
import Testing

@testable import CorkboardHub

/// `RoomMembers`: the live links a broadcast goes to, kept between changes, and a member let go
/// of when it leaves although its roster entry and it hold each other.
@Suite struct RoomMembersTests {
    /// A link that only has to exist.
    final class SilentLink: MemberLink, @unchecked Sendable {
        func send(text: String) {}
        static func broadcast(text: String, to links: [any MemberLink]) {}
        func whenDrained(_ work: @escaping @Sendable () -> Void) {}
        var outputBound: Int { 1 << 20 }
        func close(_ code: MemberClose, reason: String) {}
        func schedule(after delay: DispatchTimeInterval, _ work: @escaping @Sendable () -> Void) {}
    }

    private func member(_ client: String, order: Int, replaying: Bool = false) -> (Member, MemberKey) {
        let link = SilentLink()
        let member = Member(
            client: client, name: client, author: client, role: .editor, observes: false, presence: .full, token: nil, link: link, order: order)
        if replaying { member.replayedThrough = 0 }
        return (member, ObjectIdentifier(link))
    }

    private func identities(_ links: [any MemberLink]) -> Set<ObjectIdentifier> {
        Set(links.map { ObjectIdentifier($0) })
    }

    @Test func liveLinksFollowJoinsLeavesAndTheEndOfAReplay() throws {
        let members = RoomMembers()
        let (ada, adaKey) = member("c1", order: 1)
        let (bob, bobKey) = member("c2", order: 2, replaying: true)
        members.admit(ada, as: adaKey)
        members.admit(bob, as: bobKey)
        #expect(identities(members.liveLinks) == [ObjectIdentifier(ada.link)])
        // Asked again without a change: the same links.
        #expect(identities(members.liveLinks) == [ObjectIdentifier(ada.link)])
        members.turnLive(bob)
        #expect(bob.isLive)
        #expect(identities(members.liveLinks) == [ObjectIdentifier(ada.link), ObjectIdentifier(bob.link)])
        let (cy, cyKey) = member("c3", order: 3)
        members.admit(cy, as: cyKey)
        #expect(members.liveLinks.count == 3)
        _ = try #require(members.remove(adaKey))
        #expect(identities(members.liveLinks) == [ObjectIdentifier(bob.link), ObjectIdentifier(cy.link)])
        #expect(members.remove(adaKey) == nil)
    }

    @Test func aMemberThatLeftIsFreedThoughItsRosterEntryStays() throws {
        let members = RoomMembers()
        var roster = PeerRoster()
        weak var gone: Member?
        let listing: ListedPeer
        do {
            let (ada, key) = member("c1", order: 1)
            listing = ListedPeer(client: ada.client, name: ada.name, order: ada.order, member: ada)
            ada.listing = listing
            roster.add(listing)
            members.admit(ada, as: key)
            gone = ada
            _ = try #require(members.remove(key))
        }
        // Unlisted, but the entry stays until the roster compacts: it must not keep the member.
        #expect(listing.member == nil)
        #expect(gone == nil)
        #expect(roster.count == 1)
    }
}
