import Dispatch
import Foundation
import Sockets

/// Several nodes on one PostgreSQL database (issues #13, #26): clients spread round-robin over
/// the nodes move items of one board (or of many: client `i` on board `i % boards`), one move
/// in flight each. It measures committed ops/s, the sender's latency to its own `committed`,
/// and on one board how long after the sender heard of its commit the members on *other* nodes
/// got the same event (through NOTIFY and the catch-up read): p50/p99 over every event and
/// every member of another node. Every member must get every seq exactly once, in order.
///
/// Given one URL and `behind`, the URL is a balancer in front of that many nodes (bench/cluster.sh
/// runs nginx with examples/scale-out/nginx.conf): every client connects through it, and the
/// balancer's board affinity decides the node.
public struct ClusterScenario {
    public struct Configuration: Sendable {
        /// The nodes' WebSocket URLs; without them the scenario starts `nodes` nodes itself
        /// on `databaseURL`.
        public var urls: [String] = []
        public var databaseURL: String?
        public var nodeCounts = [1, 3]
        public var boardCounts = [1]
        /// The one URL is a balancer in front of this many nodes (a label: it reaches them all).
        public var behind: Int?
        public var clients = 48
        public var moves = 10_000
        public var clientThreads = 2
        public var seed: UInt64 = 1
        public var timeout = 300.0
        public init() {}
    }

    public struct Variant: Sendable {
        public var nodes: Int
        public var boards: Int
        /// Through a balancer in front of `nodes` nodes.
        public var balanced: Bool
        public var clients: Int
        public var opsPerSecond: Double
        /// From sending a move to the sender's `committed`.
        public var commitLatency: LatencySummary
        /// From the sender's `committed` to the same event at a member of another node.
        public var crossNodeDelivery: LatencySummary?
        public var noops: Int
        public var rejections: [String: Int]
    }

    public let configuration: Configuration
    public init(configuration: Configuration) { self.configuration = configuration }

    public func run(progress: (String) -> Void) throws -> [Variant] {
        let loops = IOLoopGroup(count: 1)
        let receivers = EpollReceivers(threads: configuration.clientThreads)
        defer { receivers.stop() }
        let variants = configuration.nodeCounts.flatMap { nodes in configuration.boardCounts.map { (nodes, $0) } }
        return try variants.map { nodeCount, boards in
            let targets = try startTargets(nodeCount)
            // Nodes started here stop when their target goes: not before the last answer.
            defer { withExtendedLifetime(targets) {} }
            let boardIDs = (0..<boards).map { _ in SuiteBoard.freshID("cluster") }
            let clients = max(configuration.clients, boards)
            for board in boardIDs {
                try SuiteBoard.create(id: board, movers: (clients + boards - 1) / boards, target: targets[0], loop: loops.next())
            }
            let driver = MoveDriver(seed: configuration.seed)
            var members: [LeanMember] = []
            // Which node each member is on, by member number.
            var nodeOf: [Int: Int] = [:]
            for (node, target) in targets.enumerated() {
                let numbers = Array(stride(from: node, to: clients, by: targets.count))
                guard !numbers.isEmpty else { continue }
                // joinAll takes a contiguous range: members are numbered node by node here, and
                // member `n` is on board `n % boards`.
                let joined = try LeanMember.joinAll(
                    members.count..<(members.count + numbers.count), target: target, board: { boardIDs[$0 % boards] },
                    listener: driver, receivers: receivers)
                members += joined
                for member in joined { nodeOf[member.number] = node }
            }
            defer { receivers.retire(members) }
            driver.assign(
                members.enumerated().map { index, member in
                    MoveDriver.Slot(item: "x\(member.number / boards)", board: boardIDs[member.number % boards], sender: member)
                })
            let outcome = try driver.run(moves: configuration.moves, senders: [], timeout: configuration.timeout)
            for board in boardIDs {
                let lastSeq = outcome.samples.filter { $0.board == board }.map(\.seq).max() ?? 0
                try waitForEveryMember(members.filter { boardIDs[$0.number % boards] == board }, through: lastSeq)
            }
            // Senders are known by seq: on one board only.
            var crossNode: [UInt64] = []
            if targets.count > 1 && boards == 1 {
                for sample in outcome.samples {
                    guard let sender = outcome.senders[sample.seq], let senderNode = nodeOf[sender] else { continue }
                    for member in members where nodeOf[member.number] != senderNode {
                        guard let arrival = member.log.withLock({ $0.arrival(of: sample.seq) }) else { continue }
                        crossNode.append(arrival > sample.answeredAt ? arrival - sample.answeredAt : 0)
                    }
                }
            }
            let balanced = configuration.behind != nil
            let shownNodes = configuration.behind ?? nodeCount
            let variant = Variant(
                nodes: shownNodes, boards: boards, balanced: balanced, clients: clients,
                opsPerSecond: outcome.committedPerSecond, commitLatency: outcome.commitLatency,
                crossNodeDelivery: crossNode.isEmpty ? nil : LatencySummary(nanoseconds: crossNode),
                noops: outcome.noops, rejections: outcome.rejections)
            progress(
                String(
                    format: "%d node%@%@, %3d board%@, %d clients: %8.0f committed/s  commit %@%@%@", shownNodes,
                    shownNodes == 1 ? "" : "s", balanced ? " behind the balancer" : "", boards, boards == 1 ? "" : "s",
                    clients, variant.opsPerSecond, variant.commitLatency.text,
                    variant.crossNodeDelivery.map { "  other node +" + $0.text } ?? "",
                    outcome.rejections.isEmpty ? "" : "  rejected \(outcome.rejections)"))
            Thread.sleep(forTimeInterval: 0.5)
            return variant
        }
    }

    private func startTargets(_ count: Int) throws -> [BenchTarget] {
        if !configuration.urls.isEmpty {
            guard configuration.urls.count >= count else {
                throw BenchTarget.Failure(description: "\(count) nodes asked for, \(configuration.urls.count) --urls given")
            }
            return try configuration.urls.prefix(count).map { try BenchTarget(url: $0) }
        }
        guard let database = configuration.databaseURL else {
            throw BenchTarget.Failure(description: "give the nodes' --urls, or a --database-url for nodes started here")
        }
        return try (0..<count).map { _ in
            try BenchTarget(url: nil, serverArguments: ["--no-demo", "--store", "postgres", "--database-url", database])
        }
    }

    /// Every member got every seq through `last` exactly once, in order (bounded wait).
    private func waitForEveryMember(_ members: [LeanMember], through last: Int) throws {
        let deadline = Date().addingTimeInterval(30)
        for member in members {
            while member.log.withLock({ $0.nextSeq <= last }) {
                guard Date() < deadline else {
                    throw BenchTarget.Failure(description: "member \(member.number) stopped at seq \(member.log.withLock { $0.nextSeq - 1 }) of \(last)")
                }
                usleep(1_000)
            }
            let (duplicates, missing) = member.log.withLock { log in (log.duplicates, log.arrivals.filter { $0 == 0 }.count) }
            guard duplicates == 0, missing == 0 else {
                throw BenchTarget.Failure(description: "member \(member.number): \(duplicates) duplicate and \(missing) missing events")
            }
        }
    }
}
