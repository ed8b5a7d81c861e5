extension Connection {
    /// Why a connection closed: what its handler and `whenClosed` callbacks hear, and what the
    /// traffic counters count.
    public enum CloseReason: Equatable, Sendable {
        /// We closed it (after flushing what was queued).
        case local
        /// The peer closed its side.
        case peerClosed
        /// The peer reset the connection or went away mid-write (ECONNRESET, EPIPE).
        case reset
        /// The peer stopped reading and the output bound was reached.
        case outputOverflow
        /// We aborted it without flushing (shutdown deadline, protocol violation).
        case aborted
        case failed(Int32)
        /// The transport filter gave up: a failed TLS handshake (an untrusted certificate, a
        /// protocol version we refuse, a client that speaks plain HTTP) or a corrupt record.
        case transportFailed(TransportFailure)
    }
}
