import Dispatch
import Foundation
import Sockets
import WebSocket

/// Committed operations per second (issue #11): `clients` clients each keep one move in flight,
/// all on one board, or spread over 100 boards (one connection per board, so with 50 clients
/// each client holds two). Latency is from sending a move to the sender's own `committed`.
/// Against Corkboard the store is whatever the server was started with; against a peer it is
/// the peer's relay, which persists nothing.
public struct OpsScenario {
    public struct Configuration: Sendable {
        public var url: String?
        /// `--store` of a server the scenario starts itself (ignored with `url`).
        public var store = "memory"
        public var clients = 50
        public var boardCounts = [1, 100]
        /// Moves per variant, shared by every connection.
        public var moves = 20_000
        /// Threads reading the members' sockets (see `EpollReceivers`).
        public var clientThreads = 2
        public var seed: UInt64 = 1
        public var timeout = 300.0
        public init() {}
    }

    public struct Variant: Sendable {
        public var boards: Int
        public var connections: Int
        public var opsPerSecond: Double
        public var latency: LatencySummary
        public var noops: Int
        public var rejections: [String: Int]
    }

    public let configuration: Configuration
    public init(configuration: Configuration) { self.configuration = configuration }

    public func run(progress: (String) -> Void) throws -> [Variant] {
        let target = try BenchTarget(url: configuration.url, serverArguments: ["--no-demo", "--store", configuration.store])
        let loops = IOLoopGroup(count: 1)
        let receivers = EpollReceivers(threads: configuration.clientThreads)
        defer { receivers.stop() }
        return try configuration.boardCounts.map { boards in
            let connections = max(configuration.clients, boards)
            let boardIDs = (0..<boards).map { _ in SuiteBoard.freshID("ops") }
            let moversPerBoard = (connections + boards - 1) / boards
            for board in boardIDs { try SuiteBoard.create(id: board, movers: moversPerBoard, target: target, loop: loops.next()) }
            let driver = MoveDriver(seed: configuration.seed)
            let members = try LeanMember.joinAll(
                0..<connections, target: target, board: { boardIDs[$0 % boards] },
                listener: driver, receivers: receivers)
            defer { receivers.retire(members) }
            driver.assign(
                members.enumerated().map { index, member in
                    MoveDriver.Slot(item: "x\(index / boards)", board: boardIDs[index % boards], sender: member)
                })
            let outcome = try driver.run(moves: configuration.moves, senders: [], timeout: configuration.timeout)
            let variant = Variant(
                boards: boards, connections: connections,
                opsPerSecond: outcome.committedPerSecond, latency: outcome.commitLatency,
                noops: outcome.noops, rejections: outcome.rejections)
            progress(
                String(
                    format: "%3d board%@, %3d connections: %8.0f committed/s  %@%@", boards, boards == 1 ? " " : "s",
                    connections, variant.opsPerSecond, variant.latency.text,
                    outcome.rejections.isEmpty ? "" : "  rejected \(outcome.rejections)"))
            Thread.sleep(forTimeInterval: 0.5)
            return variant
        }
    }
}
