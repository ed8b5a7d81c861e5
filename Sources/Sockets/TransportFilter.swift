/// A byte transform between a connection's socket and its protocol: TLS. What the socket
/// reads goes in through `receive` and comes out of `read` decoded; what the protocol sends
/// goes in through `write` (once established) and comes out of `takeOutput` encoded, with
/// whatever the filter has to say by itself (handshake messages, alerts, close_notify).
///
/// No I/O of its own: `Connection` moves the bytes, driven by its Dispatch sources, so the
/// filter is testable without a socket. One connection's filter is used on its loop only.
public protocol TransportFilter: AnyObject {
    /// True once the handshake is done; bytes to send wait in the connection until then.
    var isEstablished: Bool { get }

    /// Called once when the connection starts: a client writes its first handshake message.
    func start()

    /// Bytes just read from the socket (copied; the buffer is reused after the call).
    func receive(_ bytes: UnsafeRawBufferPointer)

    /// Decodes the next bytes received into `buffer`, advancing the handshake as needed.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> TransportRead

    /// Encodes all of `bytes` for the peer (only once established). Returns why it could not.
    func write(_ bytes: UnsafeRawBufferPointer) -> TransportFailure?

    /// Begins an orderly close (TLS close_notify); what to send comes out of `takeOutput`.
    func close()

    /// Encoded bytes waiting to be sent to the peer, if any.
    func takeOutput() -> ByteChunk?

    /// Received bytes not yet returned by `read` (reading was paused in between).
    var hasBufferedInput: Bool { get }
}

/// The outcome of `TransportFilter.read`.
public enum TransportRead: Equatable {
    /// This many decoded bytes are at the start of the buffer.
    case bytes(Int)
    /// Nothing more until more bytes are received.
    case needMore
    /// The peer closed the session in order (TLS close_notify): the end of its data.
    case closed
    /// The session cannot go on (a failed handshake, a corrupt record).
    case failed(TransportFailure)
}

/// Why a transport filter gave up, as one line a person can act on.
public struct TransportFailure: Error, Equatable, Sendable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// Makes the filter of each new connection (a fresh TLS session). Throws when none can be
/// made; the connection is then dropped, never served without it.
public typealias TransportFilterFactory = @Sendable () throws -> TransportFilter
