import CorkboardModel
import CorkboardWire
import Foundation
import Glibc
import TestSupport
import Testing

/// Three nodes behind the nginx of examples/scale-out/nginx.conf (issue #26): clients through
/// it see one service, a board's members meet on one node (board affinity) while boards spread
/// over the nodes, and killing the node a board lives on loses nothing: its clients reconnect
/// through the balancer, land on another node and resume; restarted, the node takes the
/// board's new connections again while the others stay, and everyone converges.
@Suite(.threadsOfTheirOwn) struct ClusterBalancerTests {
    @Test(.runningTimeLimit(.minutes(3)))
    func botsThroughTheBalancerSeeOneServiceAndEachBoardStaysOnOneNode() async throws {
        try await offPool {
            let nodes = try ClusterNode.start(3, databaseURL: try PostgresCluster.shared().createDatabase())
            let balancer = try NginxBalancer(nodes: nodes.map(\.port))
            let bots = try (1...4).map { try BoardTestClient(port: balancer.port, board: "board", name: "Bot\($0)", namingBoard: true) }
            #expect(bots.last?.welcome.count == 4, "every bot in one people list")

            // Four writers at once, on items two of them share.
            let items: [[ItemID]] = [["i1", "i2"], ["i2", "i3"], ["i3", "i6"], ["i6", "i1"]]
            let workers = bots.enumerated().map { index, bot in
                Background { () throws -> [ServerMessage] in
                    try (0..<15).map { step in try bot.perform(alternatingMove(items[index][step % 2], in: bot)) }
                }
            }
            for worker in workers { _ = try worker.wait(timeout: 90) }
            let log = try Unharmed.events(port: balancer.port, board: "board", token: nil)
            #expect(log.map(\.seq) == Array(1...log.count) && Set(log.map(\.opId)).count == log.count, "one gapless order")
            for bot in bots {
                try bot.waitUntilSeq(log.count)
                #expect(bot.events == log && bot.repeats.isEmpty, "\(bot.name) saw every event once, in order")
            }
            #expect(try Unharmed.document(port: balancer.port, board: "board", token: nil).board == bots[0].board)

            // Affinity: the board's members and commits are all on one node.
            let members = try nodes.map { try $0.counter("corkboard_members") }
            #expect(members.sorted() == [0, 0, 4], "the board's members by node: \(members)")
            let committing = try nodes.filter { try $0.counter("corkboard_ops_committed_total") > 0 }
            #expect(committing.count == 1, "one node commits the board")
            #expect(try nodes.map { try $0.counter("corkboard_store_conflicts_total") } == [0, 0, 0], "no node raced another")

            // Other boards hash elsewhere: twelve boards, one member each, land on several nodes.
            for index in 1...12 { try Unharmed.createBoard(port: balancer.port, id: "spread-\(index)") }
            let spread = try (1...12).map { try BoardTestClient(port: balancer.port, board: "spread-\($0)", name: "S", namingBoard: true) }
            let byNode = try nodes.map { try $0.counter("corkboard_members") }
            #expect(byNode.reduce(0, +) == 16)
            #expect(byNode.filter { $0 > 0 }.count >= 2, "boards spread over the nodes: \(byNode)")
            print("members by node behind the balancer: \(members) for one board, then \(byNode) with 12 more boards")
            withExtendedLifetime(spread) {}
        }
    }

    @Test(.runningTimeLimit(.minutes(4)))
    func killingABoardsNodeBehindTheBalancerLosesNothing() async throws {
        try await offPool {
            let databaseURL = try PostgresCluster.shared().createDatabase()
            var nodes = try ClusterNode.start(3, databaseURL: databaseURL)
            let balancer = try NginxBalancer(nodes: nodes.map(\.port))
            var clients = try (1...3).map { try BoardTestClient(port: balancer.port, board: "board", name: "Mover\($0)", namingBoard: true) }
            let owner = try #require(try nodes.first { try $0.counter("corkboard_members") == 3 }, "the board's members on one node")
            var random = SplitMix64(seed: 26)
            let items: [ItemID] = ["i1", "i2", "i3", "i4", "i5", "i6", "i7"]
            // Every operation sent, by client, and those whose commit the sender heard of.
            var sent: [[OperationRequest]] = [[], [], []]
            var acknowledged: Set<OperationID> = []
            func round() throws {
                var requests: [OperationRequest] = []
                for (index, client) in clients.enumerated() {
                    let request = client.request(alternatingMove(items[Int(random.next() % UInt64(items.count))], in: client))
                    try client.send(.operation(request))
                    sent[index].append(request)
                    requests.append(request)
                }
                for (client, request) in zip(clients, requests) {
                    if case .committed(let event) = try client.outcome(of: request.opId) { acknowledged.insert(event.opId) }
                }
            }
            for _ in 0..<15 { try round() }

            // Moves in flight from every client, and the board's node dies under them.
            for (index, client) in clients.enumerated() {
                for _ in 0..<5 {
                    let request = client.request(alternatingMove(items[Int(random.next() % UInt64(items.count))], in: client))
                    try client.send(.operation(request))
                    sent[index].append(request)
                }
            }
            owner.kill()
            for client in clients {
                // What each heard before its connection died.
                while (try? client.nextMessage()) != nil {}
                acknowledged.formUnion(client.events.map(\.opId))
            }

            // Through the balancer again: another node, a resume, and every unanswered move
            // sent again with its opId (applied at most once).
            clients = try clients.map { try BoardTestClient(port: balancer.port, board: "board", name: $0.name, resumeFrom: $0, namingBoard: true) }
            #expect(clients.allSatisfy { $0.welcome.resumed }, "each client resumed where it was")
            let durable = try Unharmed.events(port: balancer.port, board: "board", token: nil)
            #expect(acknowledged.isSubset(of: Set(durable.map(\.opId))), "every acknowledged move is durable")
            for (index, client) in clients.enumerated() {
                try client.waitUntilSeq(durable.count)
                for request in sent[index] where !acknowledged.contains(request.opId) {
                    if client.events.contains(where: { $0.opId == request.opId }) { client.expectRepeat(of: request.opId) }
                    let resent = OperationRequest(opId: request.opId, baseSeq: client.seq, request.operation)
                    let outcome = try client.perform(resent)
                    if case .rejected(let rejection) = outcome { Issue.record("a resend was rejected: \(rejection)") }
                }
            }
            for _ in 0..<10 { try round() }
            let survivors = try nodes.filter { $0 !== owner }.map { try $0.counter("corkboard_members") }
            #expect(survivors.sorted() == [0, 3], "the board moved to one other node: \(survivors)")

            // The node restarts where nginx expects it; once nginx tries it again (fail_timeout,
            // 5 s) a newcomer's connection hashes to it, while the movers stay where they are:
            // the board has members on two nodes, and everyone still converges.
            let restarted = try ClusterNode(databaseURL: databaseURL, port: owner.port)
            nodes = nodes.map { $0 === owner ? restarted : $0 }
            usleep(5_500_000)
            let newcomer = try BoardTestClient(port: balancer.port, board: "board", name: "Mover4", namingBoard: true)
            #expect(try restarted.counter("corkboard_members") == 1, "the newcomer is on the restarted node")
            #expect(newcomer.welcome.count == 4, "one people list across both nodes")
            clients.append(newcomer)
            sent.append([])
            for _ in 0..<10 { try round() }

            let log = try Unharmed.events(port: balancer.port, board: "board", token: nil)
            #expect(log.map(\.seq) == Array(1...log.count), "one gapless order across the kill")
            #expect(Set(log.map(\.opId)).count == log.count, "no move applied twice")
            #expect(acknowledged.isSubset(of: Set(log.map(\.opId))), "every acknowledged move in the log once")
            let document = try Unharmed.document(port: balancer.port, board: "board", token: nil)
            for client in clients {
                try client.waitUntilSeq(log.count)
                #expect(client.board == document.board, "\(client.name) converged with the server")
            }
            print("killed and restarted the board's node behind nginx: \(log.count) events, \(acknowledged.count) acknowledged, all in the log once")
        }
    }
}
