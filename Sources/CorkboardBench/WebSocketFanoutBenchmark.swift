import Dispatch
import Foundation
import Sockets
import Synchronization
import WebSocket
import WebSocketDeflate

/// Fan-out: N members on `/ws/broadcast`; one of them sends a message, the server encodes it
/// once and writes it to all; measured is the time from sending to the *last* member receiving
/// it, for growing N.
public struct WebSocketFanoutBenchmark {
    public struct Configuration: Sendable {
        public var url: String?
        public var steps = [1_000, 2_000, 5_000, 10_000]
        public var rounds = 20
        public var size = 128
        /// Members offer permessage-deflate (the server compresses each broadcast once).
        public var deflate = false
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
        var options = WebSocketOptions()
        if configuration.deflate { options.extensions = DeflateNegotiator() }
        var lines = [
            "ws-fanout: \(configuration.size)-byte JSON broadcast, \(configuration.rounds) rounds per step, "
                + "permessage-deflate \(configuration.deflate ? "on" : "off")",
            "  members   time until the last member has it                          deliveries/s",
        ]
        let payload = Self.jsonPayload(size: configuration.size)
        for step in configuration.steps.sorted() {
            sockets += try connectAll(
                count: step - sockets.count, target: target, path: "/ws/broadcast", loops: loops,
                handler: tally, options: options)
            progress("\(sockets.count) members connected")
            var times: [Double] = []
            for round in 0..<configuration.rounds {
                tally.expect(round: round, members: sockets.count)
                let started = DispatchTime.now()
                sockets[round % sockets.count].send(.text("\(round)|\(payload)"))
                guard let finished = tally.waitForAll(timeout: 30) else {
                    throw BenchTarget.Failure(description: "round \(round) with \(sockets.count) members did not complete in 30 s (\(tally.arrived) arrived)")
                }
                times.append(Double(finished.uptimeNanoseconds - started.uptimeNanoseconds) / 1e9)
            }
            var line =
                String(format: "  %7d   ", sockets.count) + Percentiles(times).summary
                + String(format: "   %.0f", Double(sockets.count * times.count) / times.reduce(0, +))
            if let rss = target.serverResidentBytes { line += String(format: "   server RSS %.0f MB", Double(rss) / 1e6) }
            lines.append(line)
            progress(line)
        }
        for socket in sockets { socket.close() }
        return lines.joined(separator: "\n")
    }
}

extension WebSocketFanoutBenchmark {
    /// A committed-event-like JSON text of about `size` bytes: compresses as real traffic does.
    static func jsonPayload(size: Int) -> String {
        var items: [String] = []
        var length = 60
        while length < size {
            let item = #"{"id":"card-\#(items.count)","label":"Task \#(items.count * 7919 % 1000)"}"#
            items.append(item)
            length += item.utf8.count + 1
        }
        return #"{"type":"committed","seq":1,"items":[\#(items.joined(separator: ","))]}"#
    }
}

/// Counts members that received the current round's message; remembers when the last one did.
final class ArrivalTally: WebSocketHandler, Sendable {
    private struct Round {
        var number = -1
        var expected = 0
        var arrived = 0
        var last: DispatchTime?
    }
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
