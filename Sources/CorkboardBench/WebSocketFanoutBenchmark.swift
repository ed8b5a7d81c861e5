import Dispatch
import Foundation
import Sockets
import Synchronization
import WebSocket

/// Fan-out: N members on `/ws/broadcast`; one of them sends a message, the server encodes it
/// once and writes it to all; measured is the time from sending to the *last* member receiving
/// it, for growing N.
public struct WebSocketFanoutBenchmark {
    public struct Configuration: Sendable {
        public var url: String?
        public var steps = [1_000, 2_000, 5_000, 10_000]
        public var rounds = 20
        public var size = 128
        public var clientLoops = 2
        public init() {}
    }

    public let configuration: Configuration
    public init(configuration: Configuration) { self.configuration = configuration }

    public func run(progress: (String) -> Void) throws -> String {
        let target = try BenchTarget(url: configuration.url)
        let loops = IOLoopGroup(count: configuration.clientLoops)
        let tally = ArrivalTally()
        var sockets: [WebSocketConnection] = []
        var lines = ["ws-fanout: \(configuration.size)-byte text broadcast, \(configuration.rounds) rounds per step",
                     "  members   time until the last member has it"]
        let padding = String(repeating: "x", count: max(0, configuration.size - 16))
        for step in configuration.steps.sorted() {
            sockets += try connectAll(count: step - sockets.count, target: target, path: "/ws/broadcast", loops: loops, handler: tally)
            progress("\(sockets.count) members connected")
            var times: [Double] = []
            for round in 0..<configuration.rounds {
                tally.expect(round: round, members: sockets.count)
                let started = DispatchTime.now()
                sockets[round % sockets.count].send(.text("\(round)|\(padding)"))
                guard let finished = tally.waitForAll(timeout: 30) else {
                    throw BenchTarget.Failure(description: "round \(round) with \(sockets.count) members did not complete in 30 s (\(tally.arrived) arrived)")
                }
                times.append(Double(finished.uptimeNanoseconds - started.uptimeNanoseconds) / 1e9)
            }
            var line = String(format: "  %7d   ", sockets.count) + Percentiles(times).summary
            if let rss = target.serverResidentBytes { line += String(format: "   server RSS %.0f MB", Double(rss) / 1e6) }
            lines.append(line)
            progress(line)
        }
        for socket in sockets { socket.close() }
        return lines.joined(separator: "\n")
    }
}

/// Counts members that received the current round's message; remembers when the last one did.
final class ArrivalTally: WebSocketHandler, Sendable {
    private struct Round { var number = -1; var expected = 0; var arrived = 0; var last: DispatchTime? }
    private let state = Mutex(Round())
    private let complete = DispatchSemaphore(value: 0)

    func expect(round: Int, members: Int) {
        state.withLock { $0 = Round(number: round, expected: members) }
    }

    var arrived: Int { state.withLock { $0.arrived } }

    func waitForAll(timeout: Double) -> DispatchTime? {
        guard complete.wait(timeout: .now() + timeout) == .success else { return nil }
        return state.withLock { $0.last }
    }

    func webSocket(_ socket: WebSocketConnection, didReceive message: WebSocketMessage) {
        guard case .text(let text) = message, let round = Int(text.prefix { $0 != "|" }) else { return }
        let now = DispatchTime.now()
        let finished = state.withLock { state -> Bool in
            guard round == state.number else { return false }
            state.arrived += 1
            guard state.arrived == state.expected else { return false }
            state.last = now
            return true
        }
        if finished { complete.signal() }
    }

    func webSocketDidClose(_ socket: WebSocketConnection, code: WebSocketCloseCode, reason: String) {}
}
