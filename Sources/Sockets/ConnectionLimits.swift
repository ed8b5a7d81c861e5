import Dispatch

extension Connection {
    /// What one connection may hold and take: its output bound, its reads per event, its linger.
    public struct Limits: Sendable {
        /// Bytes that may wait for a slow reader before the connection is dropped.
        public var maxPendingOutput: Int
        /// Reads per readiness event before yielding the loop to other connections.
        public var readsPerEvent: Int
        /// A lingering close (see `close`) reads and discards for at most this long...
        public var lingerTime: DispatchTimeInterval
        /// ...and at most this many bytes, then closes whatever the peer still sends.
        public var lingerBytes: Int

        public init(
            maxPendingOutput: Int = 4 * 1024 * 1024, readsPerEvent: Int = 8,
            lingerTime: DispatchTimeInterval = .seconds(2), lingerBytes: Int = 4 * 1024 * 1024
        ) {
            self.maxPendingOutput = maxPendingOutput
            self.readsPerEvent = readsPerEvent
            self.lingerTime = lingerTime
            self.lingerBytes = lingerBytes
        }
    }
}

/// One `Connection.Limits` for many connections: a server's connections all read the one its
/// `TCPServer` made instead of each holding a copy (part of an idle connection's memory).
/// Immutable, hence `Sendable`.
final class SharedLimits: Sendable {
    let limits: Connection.Limits

    init(_ limits: Connection.Limits) { self.limits = limits }
}
