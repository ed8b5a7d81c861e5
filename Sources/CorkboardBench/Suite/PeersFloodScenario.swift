import CorkboardModel
import Dispatch
import Foundation
import Sockets
import Synchronization

/// A `peers.list` flood (issue #31, item 3): `peers` members named with `nameBytes` each on one
/// board, then `flooders` more that each send `{"type":"peers.list","limit":200}` `rate` times a
/// second for `seconds`, reading everything; meanwhile one good member commits moves one at a
/// time. Measured: the bytes the flooders were sent (and how many pages and refusals), the
/// server's CPU seconds, and the good member's move latency.
public struct PeersFloodScenario {
    public struct Configuration: Sendable {
        public var url: String?
        public var peers = 200
        public var nameBytes = 256
        public var flooders = 4
        public var rate = 60.0
        public var seconds = 15.0
        public init() {}
    }

    public struct Result: Sendable {
        public var requests: Int
        public var sentBytes: Int
        public var seconds: Double
        public var serverCPUSeconds: Double?
        public var moves: LatencySummary
    }

    public let configuration: Configuration
    public init(configuration: Configuration) { self.configuration = configuration }

    public func run(progress: (String) -> Void) throws -> Result {
        let target = try BenchTarget(url: configuration.url, serverArguments: ["--no-demo", "--store", "memory"])
        let loops = IOLoopGroup(count: 1)
        let board = JoinChurnScenario.board(id: SuiteBoard.freshID("peers-flood"), items: 1, labelBytes: 20)
        try HubBenchmark.create(board, target: target, loop: loops.next())
        let receivers = EpollReceivers(threads: 1)
        defer { receivers.stop() }
        let nameBytes = configuration.nameBytes
        let peers = try LeanMember.joinAll(
            1..<1 + configuration.peers, target: target, board: { _ in board.id }, listener: nil, receivers: receivers,
            name: { number in
                let prefix = "p\(number)-"
                return prefix + String(repeating: "n", count: max(0, nameBytes - prefix.utf8.count))
            })
        defer { for peer in peers { peer.close() } }
        let flooders = try LeanMember.joinAll(
            10_000..<10_000 + configuration.flooders, target: target, board: { _ in board.id }, listener: nil, receivers: receivers)
        defer { for flooder in flooders { flooder.close() } }
        let mover = GoodMover()
        let good = try LeanMember(number: 0, host: target.host, port: target.port, board: board.id, listener: mover)
        receivers.add(good)
        defer { good.close() }
        progress("\(peers.count) peers named with \(nameBytes) bytes each; \(flooders.count) flooders")

        let before = flooders.map { $0.log.withLock { $0.receivedBytes } }
        let cpuBefore = DurableBenchmark.serverCPUSeconds(target)
        let started = DispatchTime.now().uptimeNanoseconds
        let deadline = Date().addingTimeInterval(configuration.seconds)
        let requests = Atomic<Int>(0)
        let done = DispatchGroup()
        let interval = 1 / configuration.rate
        for flooder in flooders {
            done.enter()
            Thread {
                defer { done.leave() }
                var next = Date()
                while next < deadline {
                    flooder.send(move: #"{"type":"peers.list","limit":200}"#, opId: "")
                    requests.add(1, ordering: .relaxed)
                    next += interval
                    let wait = next.timeIntervalSinceNow
                    if wait > 0 { Thread.sleep(forTimeInterval: wait) }
                }
            }.start()
        }
        let latencies = try GoodMover.moveUntil(deadline, member: good, mover: mover)
        done.wait()
        let seconds = secondsSince(started)
        let sent = zip(flooders, before).reduce(0) { sum, pair in sum + pair.0.log.withLock { $0.receivedBytes } - pair.1 }
        let cpu = DurableBenchmark.serverCPUSeconds(target).flatMap { after in cpuBefore.map { after - $0 } }
        let result = Result(
            requests: requests.load(ordering: .relaxed), sentBytes: sent, seconds: seconds, serverCPUSeconds: cpu,
            moves: LatencySummary(nanoseconds: latencies))
        progress(
            String(
                format: "%d peers.list in %.1f s: %.1f MB sent to the flooders (%.1f MB/s), server CPU %.1f s; the good member's %d moves: %@",
                result.requests, seconds, Double(sent) / 1e6, Double(sent) / 1e6 / seconds, cpu ?? .nan, latencies.count, result.moves.text))
        return result
    }
}
