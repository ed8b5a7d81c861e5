import CorkboardModel
import CorkboardWire
import Foundation
import Glibc
import HubTestSupport
import TestSupport
import Testing

/// Membership across nodes (docs/protocol.md, "Several nodes"): whichever node a
/// member is connected to, the people list of a board is everyone's, bounded and coalesced as
/// on one node, and the members of a node that dies leave everyone's list within the bound.
@Suite(.threadsOfTheirOwn) struct ClusterMembershipTests {
    @Test(.runningTimeLimit(.minutes(3)))
    func aMemberOnEachOfThreeNodesSeesTheOtherTwo() async throws {
        try await offPool {
            let nodes = try ClusterNode.start(3, databaseURL: try PostgresCluster.shared().createDatabase())
            let ada = try BoardTestClient(port: nodes[0].port, board: "board", name: "Ada")
            #expect(ada.welcome.peers.isEmpty && ada.welcome.count == 1)

            // Node 1 opens the board now: its first welcome already lists node 0's member.
            let bob = try BoardTestClient(port: nodes[1].port, board: "board", name: "Bob")
            #expect(bob.welcome.peers.map(\.name) == ["Ada"] && bob.welcome.count == 2)
            #expect(bob.welcome.peers.first?.client == ada.clientID)
            try expectJoin(of: bob, seenBy: ada)

            let cy = try BoardTestClient(port: nodes[2].port, board: "board", name: "Cy")
            #expect(Set(cy.welcome.peers.map(\.name)) == ["Ada", "Bob"] && cy.welcome.count == 3)
            try expectJoin(of: cy, seenBy: ada)
            try expectJoin(of: cy, seenBy: bob)

            // `peers.list` pages through every node's peers.
            try cy.send(.peersList(after: nil, limit: MembershipLimits.maximumPage))
            let page = try #require(try cy.waitFor(type: "peers.page").peersPage)
            #expect(page.count == 3 && Set(page.peers.map(\.client)) == [ada.clientID, bob.clientID, cy.clientID])

            // A drag on one node shows in another node's list of who drags.
            try ada.send(.dragStart(items: ["i1"]))
            _ = try bob.waitFor("Ada's drag") { if case .drag(let update) = $0 { update.client == ada.clientID } else { false } }
            let late = try BoardTestClient(port: nodes[1].port, board: "board", name: "Late")
            #expect(late.welcome.peers.first { $0.client == ada.clientID }?.drag?.items == ["i1"], "welcome shows Ada dragging")
            try expectJoin(of: late, seenBy: cy)
            try ada.send(.dragEnd)

            // Leaving one node is told on the others.
            try bob.close()
            for watcher in [ada, cy] { try expectLeave(of: bob.clientID, seenBy: watcher) }

            // A node killed: its members leave everyone's list within the bound (10 s).
            let killed = Date()
            nodes[2].kill()
            try expectLeave(of: cy.clientID, seenBy: ada, within: 10)
            print("a killed node's member left the other nodes' lists after \(String(format: "%.1f", Date().timeIntervalSince(killed))) s")
        }
    }

    @Test(.runningTimeLimit(.minutes(3)))
    func aNodeStoppedCleanlyTakesItsMembersOffTheListsAtOnce() async throws {
        try await offPool {
            let nodes = try ClusterNode.start(2, databaseURL: try PostgresCluster.shared().createDatabase())
            let ada = try BoardTestClient(port: nodes[0].port, board: "board", name: "Ada")
            let bob = try BoardTestClient(port: nodes[1].port, board: "board", name: "Bob")
            try expectJoin(of: bob, seenBy: ada)
            // Bob's node says it stops: nobody waits for its heartbeats to be missed (7 s).
            nodes[1].stop()
            let stopped = Date()
            try expectLeave(of: bob.clientID, seenBy: ada, within: 3)
            print("a cleanly stopped node's member left the other lists \(String(format: "%.1f", Date().timeIntervalSince(stopped))) s after it exited")
            // A board opened now waits for no list from the stopped node.
            try Unharmed.createBoard(port: nodes[0].port, id: "after")
            let opened = Date()
            _ = try BoardTestClient(port: nodes[0].port, board: "after", name: "Cy")
            #expect(Date().timeIntervalSince(opened) < 1, "the stopped node is not awaited")
        }
    }

    @Test(.runningTimeLimit(.minutes(3)))
    func aBigAudienceIsBoundedAcrossNodesAndPagedInFull() async throws {
        try await offPool {
            let nodes = try ClusterNode.start(2, databaseURL: try PostgresCluster.shared().createDatabase())
            // Names as long as they may be (60 × 256 bytes): node 0's list goes to node 1 in
            // several notifications.
            let bound = MembershipLimits.listedPeers
            let crowd = try (1...bound + 10).map { index in
                let prefix = "p\(index)-"
                let name = prefix + String(repeating: "n", count: Limits.maximumNameBytes - prefix.utf8.count)
                return try BoardTestClient(port: nodes[0].port, board: "board", name: name)
            }
            let newcomer = try BoardTestClient(port: nodes[1].port, board: "board", name: "Newcomer")
            #expect(newcomer.welcome.count == bound + 11)
            #expect(newcomer.welcome.peers.count == bound, "a welcome lists at most \(bound) peers, of any node")
            var listed: [Peer] = []
            var after: Int?
            repeat {
                try newcomer.send(.peersList(after: after, limit: 25))
                let page = try #require(try newcomer.waitFor(type: "peers.page").peersPage)
                listed += page.peers
                after = page.next
            } while after != nil
            #expect(Set(listed.map(\.client)) == Set(crowd.map(\.clientID) + [newcomer.clientID]), "every peer of both nodes, once")
            #expect(listed.count == bound + 11)
            // Past the bound, node 0's members hear of the newcomer in a tick's `peers`.
            let heard = try crowd[0].waitFor("the newcomer in a tick") { message in
                if case .peers(let change) = message { return change.joined.contains { $0.client == newcomer.clientID } }
                return false
            }
            #expect(try #require(heard.peersChange).count == bound + 11)
        }
    }

    // MARK: - Helpers

    private func expectJoin(of joiner: BoardTestClient, seenBy watcher: BoardTestClient) throws {
        let message = try watcher.waitFor("\(joiner.name) joining") { message in
            switch message {
            case .peerJoined(let client, _, _): client == joiner.clientID
            case .peers(let change): change.joined.contains { $0.client == joiner.clientID }
            default: false
            }
        }
        switch message {
        case .peerJoined(_, let name, _): #expect(name == joiner.name)
        case .peers(let change): #expect(change.joined.first { $0.client == joiner.clientID }?.name == joiner.name)
        default: Issue.record("\(joiner.name)'s join came as \(message)")
        }
    }

    /// Waits for `client`'s leave, which must come within `seconds` (a read gives up after 5 s).
    private func expectLeave(of client: ClientID, seenBy watcher: BoardTestClient, within seconds: Double = 15) throws {
        let started = Date()
        while Date().timeIntervalSince(started) < seconds {
            let message = try? watcher.waitFor("\(client) leaving") { message in
                switch message {
                case .peerLeft(let gone): gone == client
                case .peers(let change): change.left.contains(client)
                default: false
                }
            }
            guard message == nil else {
                #expect(Date().timeIntervalSince(started) <= seconds, "\(watcher.name) heard \(client) leave, too late")
                return
            }
        }
        Issue.record("\(watcher.name) never heard \(client) leave within \(seconds) s")
    }
}
