import Sockets

/// The body of a streamed response (`HTTPBodyStream`) on its way out: pieces are made and
/// queued only while little waits for the socket, so a client that stops reading stops the
/// stream instead of piling the body up in server memory.
/// Confinement: used on the connection's loop only, by its `HTTPServerConnection`.
struct StreamedBodyWriter {
    enum Progress: Equatable {
        /// Enough waits for the socket: feed again when it drains.
        case waiting
        case finished
        /// The pieces did not add up to the announced length (the framing is lost).
        case wrongLength(Int)
    }

    private let next: () -> [UInt8]?
    private let length: Int
    private var sent = 0
    /// A piece that would have passed the output bound behind what waits: sent after the drain.
    private var held: [UInt8]?

    init(_ stream: HTTPBodyStream) {
        next = stream.makePieces()
        length = stream.length
    }

    /// Queues pieces until `ahead` bytes wait for the socket or the body is complete.
    mutating func feed(_ connection: Connection, ahead: Int) -> Progress {
        while connection.pendingOutputBytes < ahead {
            guard let piece = held ?? next() else { return sent == length ? .finished : .wrongLength(sent) }
            held = nil
            let pending = connection.pendingOutputBytes
            if pending > 0 && pending + piece.count > connection.limits.maxPendingOutput {
                held = piece
                return .waiting
            }
            sent += piece.count
            guard sent <= length else { return .wrongLength(sent) }
            if !piece.isEmpty { connection.sendOnLoop(ByteChunk(piece)) }
        }
        return .waiting
    }
}
