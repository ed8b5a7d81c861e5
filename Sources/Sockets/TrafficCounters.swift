import Synchronization

/// What a server's connections have done, as plain atomic counters that the socket layer
/// bumps and a metrics endpoint reads (this layer knows nothing of metrics libraries).
/// Relaxed ordering: each counter is exact on its own; a reading of several is not one
/// instant, which monitoring does not need.
public final class TrafficCounters: Sendable {
    public struct Reading: Sendable, Hashable {
        public var accepted: Int
        public var closed: Int
        public var bytesIn: Int
        public var bytesOut: Int
        /// Peers disconnected because they stopped reading and their output bound was reached.
        public var slowConsumersDropped: Int
        /// Connections closed because their transport filter failed (mostly TLS handshakes).
        public var transportFailures: Int = 0
        /// Connections turned away at accept because a connection limit was reached (also in `accepted`).
        public var refused: Int = 0
        /// `sendmsg` calls made to write to clients.
        public var writeCalls: Int = 0
        /// Sends (a WebSocket frame, a response's piece; TLS records with TLS) fully written:
        /// per `writeCalls`, how many sends share a system call.
        public var sendsWritten: Int = 0

        public static let zero = Reading(accepted: 0, closed: 0, bytesIn: 0, bytesOut: 0, slowConsumersDropped: 0)

        public var open: Int { accepted - closed }
    }

    private let accepted = Atomic<Int>(0)
    private let closed = Atomic<Int>(0)
    private let bytesIn = Atomic<Int>(0)
    private let bytesOut = Atomic<Int>(0)
    private let slowConsumersDropped = Atomic<Int>(0)
    private let transportFailures = Atomic<Int>(0)
    private let refused = Atomic<Int>(0)
    private let writeCalls = Atomic<Int>(0)
    private let sendsWritten = Atomic<Int>(0)

    public init() {}

    public var reading: Reading {
        Reading(
            accepted: accepted.load(ordering: .relaxed), closed: closed.load(ordering: .relaxed),
            bytesIn: bytesIn.load(ordering: .relaxed), bytesOut: bytesOut.load(ordering: .relaxed),
            slowConsumersDropped: slowConsumersDropped.load(ordering: .relaxed),
            transportFailures: transportFailures.load(ordering: .relaxed), refused: refused.load(ordering: .relaxed),
            writeCalls: writeCalls.load(ordering: .relaxed), sendsWritten: sendsWritten.load(ordering: .relaxed))
    }

    func connectionOpened() { accepted.add(1, ordering: .relaxed) }
    func connectionClosed(_ reason: Connection.CloseReason) {
        closed.add(1, ordering: .relaxed)
        switch reason {
        case .outputOverflow: slowConsumersDropped.add(1, ordering: .relaxed)
        case .transportFailed: transportFailures.add(1, ordering: .relaxed)
        default: break
        }
    }
    func connectionRefused() { refused.add(1, ordering: .relaxed) }
    func received(_ count: Int) { bytesIn.add(count, ordering: .relaxed) }
    /// What one flush wrote.
    func wrote(_ tally: OutputQueue.Tally) {
        guard tally.calls > 0 else { return }
        writeCalls.add(tally.calls, ordering: .relaxed)
        if tally.bytes > 0 { bytesOut.add(tally.bytes, ordering: .relaxed) }
        if tally.chunks > 0 { sendsWritten.add(tally.chunks, ordering: .relaxed) }
    }
}
