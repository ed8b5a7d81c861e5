import CorkboardHub
import CorkboardModel
import CorkboardWire
import Foundation
import HubTestSupport
import TestSupport
import Testing

/// docs/protocol.md#peers and #peers-list: a welcome lists a bounded number of peers and the
/// count, a big board tells its joins and leaves once a tick, and `peers.list` pages the rest.
@Suite(.threadsOfTheirOwn) struct HubMembershipTests {
    static let bound = MembershipLimits.listedPeers

    /// A hub whose tick is long enough that every join of a test falls into one (the joins
    /// take milliseconds in memory); nothing waits for it but the tick's own message.
    static func fixture(tick: DispatchTimeInterval = .seconds(2)) throws -> HubFixture {
        try HubFixture { $0.membershipTick = tick }
    }

    /// `count` peers joined one after the other, named p1…; each has read its welcome only.
    static func crowd(_ count: Int, on fixture: HubFixture, from first: Int = 1) throws -> [BoardTestClient] {
        try (first..<(first + count)).map { try fixture.join("p\($0)") }
    }

    @Test func aSmallBoardsWelcomeListsEveryPeerAndCountsThemAll() throws {
        let fixture = try Self.fixture()
        let crowd = try Self.crowd(Self.bound - 1, on: fixture)
        let newcomer = try fixture.join("newcomer")
        #expect(newcomer.welcome.count == Self.bound)
        #expect(Set(newcomer.welcome.peers.map(\.client)) == Set(crowd.map(\.clientID)))
        // The newest first.
        #expect(newcomer.welcome.peers.first?.client == crowd.last?.clientID)
        let watcher = try fixture.join("watcher", observe: true)
        #expect(watcher.welcome.count == Self.bound, "an observer is not counted")
        #expect(Set(watcher.welcome.peers.map(\.client)) == Set((crowd + [newcomer]).map(\.clientID)))
        // Nobody hears of the observer; the newcomer is told to all at once.
        #expect(try crowd[0].sync().map(\.typeName) == Array(repeating: "peer.joined", count: Self.bound - 1))
    }

    @Test func aBigBoardsWelcomeIsBoundedWithTheDraggersFirstThenTheLatest() throws {
        // About the welcome, not the drags' form: single drag messages on this board of 70
        // (HubDragBatchTests has the batches), so that the wait below reads a `drag`; and not
        // about their timeout either: in a loaded full run the first drag outlived the default
        // 30 s before the newcomer's welcome, and was rightly left out of it.
        let fixture = try HubFixture {
            $0.membershipTick = .seconds(2)
            $0.dragBatchAudience = nil
            $0.dragTimeout = .seconds(600)
            $0.maxDragDuration = nil
        }
        let crowd = try Self.crowd(Self.bound + 20, on: fixture)
        // Two of the earliest drag: they come first although they joined long ago.
        try crowd[1].send(.dragStart(items: ["i1"]))
        try crowd[3].send(.dragStart(items: ["i2"]))
        _ = try crowd[0].waitFor("the second drag") { if case .drag(let update) = $0 { update.client == crowd[3].clientID } else { false } }

        let newcomer = try fixture.join("newcomer")
        #expect(newcomer.welcome.count == Self.bound + 21)
        let peers = newcomer.welcome.peers
        #expect(peers.count == Self.bound)
        #expect(peers.prefix(2).map(\.client) == [crowd[1].clientID, crowd[3].clientID])
        #expect(peers[0].drag?.items == ["i1"])
        #expect(peers[1].drag?.items == ["i2"])
        let latest = crowd.reversed().filter { $0.clientID != crowd[1].clientID && $0.clientID != crowd[3].clientID }
        #expect(peers.dropFirst(2).map(\.client) == latest.prefix(Self.bound - 2).map(\.clientID))
        #expect(peers.dropFirst(2).allSatisfy { $0.drag == nil })
    }

    @Test func joinsOfOneTickOnABigBoardArriveAsOneMessage() throws {
        let fixture = try Self.fixture()
        let crowd = try Self.crowd(Self.bound, on: fixture)
        let first = crowd[0]
        // Up to the bound: at once, one by one.
        #expect(try first.sync().filter { $0.typeName == "peer.joined" }.count == Self.bound - 1)

        let storm = try Self.crowd(12, on: fixture, from: Self.bound + 1)
        let message = try first.waitFor(type: "peers")
        guard case .peers(let change) = message else { throw HubTestFailure("not peers: \(message)") }
        #expect(change == PeersChange(count: Self.bound + 12, joined: storm.map { PeerName(client: $0.clientID, name: $0.name) }, left: [], truncated: false))
        #expect(!first.skipped.contains { $0.typeName.hasPrefix("peer") }, "no peer.joined besides: \(first.skipped)")
        // The newcomers receive the same message, their own join in it.
        #expect(try storm[0].waitFor(type: "peers") == message)
        #expect(try first.sync().isEmpty)
    }

    @Test func aTickOfMoreChangesThanTheBoundNamesNoneAndSaysSo() throws {
        let fixture = try Self.fixture()
        let crowd = try Self.crowd(Self.bound + 1, on: fixture)
        _ = try crowd[0].waitFor(type: "peers")
        let storm = try Self.crowd(Self.bound + 5, on: fixture, from: Self.bound + 2)
        let change = try #require(try crowd[0].waitFor(type: "peers").peersChange)
        #expect(change.count == 2 * Self.bound + 6)
        #expect(change.truncated)
        #expect(change.joined.isEmpty && change.left.isEmpty, "only the count tells of a storm")
    }

    @Test func leavesOnABigBoardComeWithTheTickAndAJoinThatLeftIsNotTold() throws {
        let fixture = try Self.fixture()
        let crowd = try Self.crowd(Self.bound + 2, on: fixture)
        let first = crowd[0]
        _ = try first.waitFor(type: "peers")
        try crowd[5].close()
        crowd[6].drop()
        let passing = try fixture.join("passing")
        try passing.close()
        let change = try #require(try first.waitFor(type: "peers").peersChange)
        #expect(change.count == Self.bound)
        #expect(change.joined.isEmpty)
        #expect(Set(change.left) == [crowd[5].clientID, crowd[6].clientID])
        #expect(change.left.count == 2)
        #expect(!change.truncated)
    }

    @Test func peersListPagesThroughEveryPeerInJoinOrder() throws {
        let fixture = try Self.fixture(tick: .milliseconds(100))
        let crowd = try Self.crowd(130, on: fixture)
        let reader = crowd[0]
        // Every join told first, so that the leave below falls into a tick of its own.
        _ = try reader.waitFor("the last tick of joins") { if case .peers(let change) = $0 { change.count == 130 } else { false } }
        var seen: [ClientID] = []
        var after: Int?
        for page in 0..<10 {
            try reader.send(.peersList(after: after, limit: 50))
            let answer = try #require(try reader.waitFor(type: "peers.page").peersPage)
            #expect(answer.count == (page == 0 ? 130 : 129))
            #expect(answer.peers.count <= 50)
            seen += answer.peers.map(\.client)
            if page == 0 {
                // One that left between two pages is skipped; the cursor holds.
                try crowd[60].close()
                _ = try reader.waitFor("the leave") { message in
                    if case .peers(let change) = message { change.left.contains(crowd[60].clientID) } else { false }
                }
            }
            guard let next = answer.next else { break }
            after = next
        }
        #expect(seen == crowd.map(\.clientID).filter { $0 != crowd[60].clientID })
    }

    @Test(arguments: [
        #"{"type":"peers.list","limit":0}"#, #"{"type":"peers.list","limit":201}"#, #"{"type":"peers.list","after":-1}"#,
        #"{"type":"peers.list","limit":"ten"}"#, #"{"type":"peers.list","after":1.5}"#,
    ])
    func aListRequestOutOfBoundsIsAnErrorAndTheMemberCarriesOn(request: String) throws {
        let fixture = try Self.fixture()
        let ada = try fixture.join("Ada")
        try ada.send(json: request)
        guard case .error(let error) = try ada.nextMessage() else { throw HubTestFailure("no error for \(request)") }
        #expect(error.code == .invalid)
        try ada.send(.peersList(after: nil, limit: MembershipLimits.maximumPage))
        let page = try #require(try ada.waitFor(type: "peers.page").peersPage)
        #expect(page == PeersPage(count: 1, peers: [Peer(client: ada.clientID, name: "Ada")], next: nil))
    }

    @Test func listRequestsBeyondThePresenceRateAreRefused() throws {
        let fixture = try HubFixture { $0.presenceRate = RateLimit(perSecond: 1, burst: 2) }
        let ada = try fixture.join("Ada")
        for _ in 0..<3 { try ada.send(.peersList(after: nil, limit: 1)) }
        // The refusal comes from the connection, the pages from the room: in either order.
        let answers = try (0..<3).map { _ in try ada.nextMessage() }
        #expect(answers.filter { $0.typeName == "peers.page" }.count == 2)
        #expect(answers.contains(.error(ErrorMessage(code: .rateLimited, message: "peers.list beyond the presence rate"))))
    }
}
