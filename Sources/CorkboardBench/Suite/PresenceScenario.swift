import CorkboardWire
import Dispatch
import Foundation
import Sockets
import Synchronization
import WebSocket

/// Live drag state at scale (issue #11): `draggers` members each hold one card of the board and
/// move its placeholder `rate` times a second while `watchers` members only watch. Measured are
/// the drag updates every watcher receives per second (each drag's `drag` once, then its
/// `drag.over`s, which the server coalesces to at most 20 a second per dragger:
/// docs/protocol.md#6-presence-drag-state) and the delay from a dragger's `drag.over` to a
/// watcher's, on a sample of watchers. Corkboard only: the peers implement no presence.
public struct PresenceScenario {
    public struct Configuration: Sendable {
        public var url: String?
        public var draggers = 100
        public var watchers = 1_000
        /// `drag.over` per dragger per second.
        public var rate = 20.0
        public var seconds = 5.0
        /// Watchers that time each `drag.over` (the others only count them).
        public var probes = 50
        public var clientLoops = 2
        public var timeout = 120.0
        /// Added to the started server's arguments (`--drag-batch-members 0`: single messages).
        public var serverArguments: [String] = []
        /// Every member asks for compact drag batches (docs/protocol.md#compact-drags).
        public var compact = false
        /// The draggers send each at a phase of its own, spread over the interval, instead of
        /// all at once: people drag whenever they like, so a change waits for the board's next
        /// tick anywhere from nothing to a whole tick. All at once, a round's first change
        /// schedules the tick 50 ms after the last one, which came right after the round
        /// before: the tick follows the rounds, and the wait is short.
        public var staggered = false
        public init() {}
    }

    public struct Result: Sendable {
        public var sentPerSecond: Double
        /// `drag` and `drag.over` messages received per second by all watchers together, and by each.
        public var deliveredPerSecond: Double
        public var perWatcherPerSecond: Double
        public var latency: LatencySummary
        /// The batched changes' delay in two parts (`DragProbe.breakdown`): until the first
        /// probe read the batch, and after that until each probe did; nil for single messages.
        public var untilFirstProbe: LatencySummary?
        public var afterFirstProbe: LatencySummary?
        public var disconnected: Int
        /// Presence messages (single or `drags` batches) all watchers received per second, and their bytes.
        public var presenceMessagesPerSecond: Double
        public var presenceBytesPerSecond: Double
        /// What one watcher reads per presence message: with batching, per tick. Bytes do not
        /// depend on the machine's load, so forms compare on it.
        public var bytesPerWatcherPerMessage: Double {
            presenceMessagesPerSecond > 0 ? presenceBytesPerSecond / presenceMessagesPerSecond : 0
        }
        /// Presence bytes per `drag` or `drag.over` received: what a tick costs a watcher is this
        /// times the draggers when each moved once in it, however many ticks a busy server folds.
        public var bytesPerChange: Double {
            deliveredPerSecond > 0 ? presenceBytesPerSecond / deliveredPerSecond : 0
        }
    }

    public let configuration: Configuration
    public init(configuration: Configuration) { self.configuration = configuration }

    public func run(progress: (String) -> Void) throws -> Result {
        precondition(configuration.draggers <= 100, "the bench board has 100 cards to drag")
        let target = try BenchTarget(url: configuration.url, serverArguments: ["--no-demo", "--store", "memory"] + configuration.serverArguments)
        let loops = IOLoopGroup(count: configuration.clientLoops)
        let board = SuiteBoard.freshID("presence")
        try SuiteBoard.create(id: board, movers: 1, target: target, loop: loops.next())
        var options = WebSocketOptions()
        options.maxMessageSize = 64 << 20
        options.closeTimeout = .seconds(30)
        let probe = DragProbe()
        let gate = JoinGate(window: 100)
        let watchers = (0..<configuration.watchers).map {
            BoardMember(
                number: $0, loop: loops.next(), board: board, gate: gate,
                dragProbe: $0 < configuration.probes ? probe : nil, compact: configuration.compact)
        }
        let draggers = (0..<configuration.draggers).map {
            BoardMember(number: configuration.watchers + $0, loop: loops.next(), board: board, gate: gate, compact: configuration.compact)
        }
        let sockets = try joinAll(
            (watchers + draggers).map { ($0, $0.loop) }, target: target, options: options, gate: gate,
            timeout: configuration.timeout)
        defer { for socket in sockets { socket.close() } }
        progress("\(watchers.count) watchers and \(draggers.count) draggers joined \(board)")
        for (index, dragger) in draggers.enumerated() { dragger.send(#"{"type":"drag.start","items":["y\#(index)"]}"#) }
        Thread.sleep(forTimeInterval: 1)
        let before = watchers.map { $0.log.withLock { ($0.drags, $0.presenceMessages, $0.presenceBytes) } }
        probe.start()

        // One thread paces every dragger: round k sends each of them a placeholder at index
        // k mod 99, all at once or (staggered) dragger j at j/draggers of the interval.
        let started = DispatchTime.now().uptimeNanoseconds
        let interval = 1 / configuration.rate
        let ticks = Int(configuration.seconds * configuration.rate)
        for tick in 0..<ticks {
            let index = tick % 99
            for (position, dragger) in draggers.enumerated() {
                let phase = configuration.staggered ? Double(position) / Double(draggers.count) : 0
                let due = started + UInt64((Double(tick) + phase) * interval * 1e9)
                let now = DispatchTime.now().uptimeNanoseconds
                if due > now { Thread.sleep(forTimeInterval: Double(due - now) / 1e9) }
                probe.sent(name: "bench-\(dragger.number)", index: index)
                dragger.send(#"{"type":"drag.over","collection":"b","index":\#(index)}"#)
            }
        }
        let elapsed = secondsSince(started)
        Thread.sleep(forTimeInterval: 0.5)
        let after = watchers.map { $0.log.withLock { ($0.drags, $0.presenceMessages, $0.presenceBytes) } }
        let countBefore = before.reduce(0) { $0 + $1.0 }
        let countAfter = after.reduce(0) { $0 + $1.0 }
        let messages = after.reduce(0) { $0 + $1.1 } - before.reduce(0) { $0 + $1.1 }
        let bytes = after.reduce(0) { $0 + $1.2 } - before.reduce(0) { $0 + $1.2 }
        for dragger in draggers { dragger.send(#"{"type":"drag.end"}"#) }
        let delivered = Double(countAfter - countBefore) / elapsed
        let breakdown = probe.breakdown()
        let result = Result(
            sentPerSecond: Double(ticks * draggers.count) / elapsed, deliveredPerSecond: delivered,
            perWatcherPerSecond: delivered / Double(watchers.count), latency: probe.summary(),
            untilFirstProbe: breakdown?.untilFirstProbe, afterFirstProbe: breakdown?.afterFirstProbe,
            disconnected: (watchers + draggers).filter { $0.log.withLock { $0.closed != nil } }.count,
            presenceMessagesPerSecond: Double(messages) / elapsed, presenceBytesPerSecond: Double(bytes) / elapsed)
        progress(
            String(
                format:
                    "drag.over sent %.0f/s; drag received %.0f/s in all, %.0f/s per watcher, in %.0f messages/s of %.1f MB/s (%.0f bytes per watcher per message, %.1f per change); delay %@; %d dropped",
                result.sentPerSecond, result.deliveredPerSecond, result.perWatcherPerSecond, result.presenceMessagesPerSecond,
                result.presenceBytesPerSecond / 1e6, result.bytesPerWatcherPerMessage, result.bytesPerChange, result.latency.text, result.disconnected))
        if let until = result.untilFirstProbe, let after = result.afterFirstProbe {
            progress("  of it, until the first probe read the batch: \(until.text)")
            progress("  and from there until each probe read it: \(after.text)")
        }
        return result
    }
}

/// Times `drag` updates: when each dragger last sent each placeholder index, and how long after
/// that a probing watcher received it.
final class DragProbe: Sendable {
    private struct State {
        var started = false
        var sent: [String: UInt64] = [:]
        var delays: [UInt64] = []
        /// Client ids to names, from each drag's start: its `drag.over`s carry only the id.
        var names: [String: String] = [:]
        /// Each timed change that came in a batch: its batch's text (the same for every watcher
        /// who got all of the tick), when it was sent and when this probe read it.
        var batched: [(batch: Int, sentAt: UInt64, receivedAt: UInt64)] = []

        mutating func timeOver(client: String, index: Int, at time: UInt64, batch: Int?) {
            guard started, let name = names[client], let sentAt = sent["\(name)/\(index)"], time > sentAt else { return }
            delays.append(time - sentAt)
            if let batch { batched.append((batch, sentAt, time)) }
        }
    }

    private let state = Mutex(State())

    func start() { state.withLock { $0.started = true } }

    func sent(name: String, index: Int) {
        let now = DispatchTime.now().uptimeNanoseconds
        state.withLock { $0.sent["\(name)/\(index)"] = now }
    }

    /// A `drag` (a start: who the client is) or a `drag.over` (a placeholder to time).
    func received(_ text: String, type: Substring, at time: UInt64) {
        guard let client = WireScan.string("client", in: text).map(String.init) else { return }
        if type == "drag" {
            if let name = WireScan.string("name", in: text).map(String.init) { state.withLock { $0.names[client] = name } }
            return
        }
        guard let over = WireScan.object("over", in: text), let index = WireScan.integer("index", in: over) else { return }
        timeOver(client: client, index: index, at: time)
    }

    /// A `drags` or `drags.compact` batch: each change as the single message it stands for
    /// (only probes read the changes).
    func received(batch text: String, at time: UInt64) {
        let changes: [CompactBatchScan.Change]
        if let compact = CompactBatchScan.changes(in: text) {
            changes = compact
        } else if case .drags(let long)? = try? WireFormat.decodeServerMessage(Data(text.utf8)) {
            changes = long.map { change in
                switch change {
                case .started(let update): .started(client: update.client, name: update.name)
                case .moved(let client, let over): .moved(client: client, index: over.index)
                case .cleared: .other
                }
            }
        } else {
            return
        }
        // Hashed once a batch, not once a change: 100 changes of a 2 KB batch, 50 probes and 20
        // ticks a second made the hashing alone a tenth of the bench's CPU.
        let batch = text.hashValue
        state.withLock { state in
            for change in changes {
                switch change {
                case .started(let client, let name): state.names[client] = name
                case .moved(let client, let index): state.timeOver(client: client, index: index, at: time, batch: batch)
                case .other: break
                }
            }
        }
    }

    private func timeOver(client: String, index: Int, at time: UInt64) {
        state.withLock { $0.timeOver(client: client, index: index, at: time, batch: nil) }
    }

    /// What the delay of the batched changes is made of, seen from the probes: from the
    /// change's send until the first probe read its batch (the wait for the tick, the batch's
    /// encoding, the first writes) and from there until this probe read it (how far down the
    /// tick's writes to every watcher this probe came). Nil without batches.
    func breakdown() -> (untilFirstProbe: LatencySummary, afterFirstProbe: LatencySummary)? {
        let samples = state.withLock { $0.batched }
        guard !samples.isEmpty else { return nil }
        // A batch's first reading by any probe. The same text can come again ticks later (the
        // same placeholders): a reading more than a second after its group's first starts another.
        var firsts: [Int: [UInt64]] = [:]
        for sample in samples.sorted(by: { $0.receivedAt < $1.receivedAt }) {
            if let first = firsts[sample.batch]?.last, sample.receivedAt - first < 1_000_000_000 { continue }
            firsts[sample.batch, default: []].append(sample.receivedAt)
        }
        var until: [UInt64] = []
        var after: [UInt64] = []
        for sample in samples {
            guard let first = firsts[sample.batch]?.last(where: { $0 <= sample.receivedAt }) else { continue }
            until.append(first > sample.sentAt ? first - sample.sentAt : 0)
            after.append(sample.receivedAt - first)
        }
        return (LatencySummary(nanoseconds: until), LatencySummary(nanoseconds: after))
    }

    func summary() -> LatencySummary { state.withLock { LatencySummary(nanoseconds: $0.delays) } }
}
