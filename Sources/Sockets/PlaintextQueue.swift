/// Bytes a connection with a transport filter (TLS) still has to encode, in order.
///
/// They are encoded when the connection flushes, not when they are sent: many small sends of
/// one turn (replies, broadcasts) are gathered into one record instead of one record each, and
/// a large send is encoded a slice at a time as the socket drains, so its ciphertext never
/// sits in memory all at once next to its plaintext.
struct PlaintextQueue {
    private var chunks: [ByteChunk] = []
    private var head = 0
    /// Bytes of `chunks[head]` already encoded.
    private var headOffset = 0
    private(set) var byteCount = 0

    /// A slice of a large chunk is encoded straight from its memory, at most this much at a time.
    static let largestDirectSlice = 64 * 1024

    var isEmpty: Bool { byteCount == 0 }

    mutating func append(_ chunk: ByteChunk) {
        guard chunk.count > 0 else { return }
        chunks.append(chunk)
        byteCount += chunk.count
    }

    mutating func removeAll() {
        chunks = []
        head = 0
        headOffset = 0
        byteCount = 0
    }

    /// Encodes through `filter` until `output` holds `limit` bytes or nothing is left. Pieces
    /// smaller than `staging` are gathered there first (it should be one record's worth, 16 KiB).
    mutating func encode(
        through filter: TransportFilter, staging: UnsafeMutableRawBufferPointer,
        into output: inout OutputQueue, limit: Int
    ) -> TransportFailure? {
        while !isEmpty && output.byteCount < limit {
            let chunk = chunks[head]
            let left = chunk.count - headOffset
            let failure: TransportFailure?
            if left >= staging.count {
                let count = min(left, Self.largestDirectSlice)
                failure = filter.write(UnsafeRawBufferPointer(start: chunk.base + headOffset, count: count))
                consume(count)
            } else {
                var filled = 0
                while filled < staging.count && !isEmpty {
                    let piece = chunks[head]
                    let count = min(piece.count - headOffset, staging.count - filled)
                    (staging.baseAddress! + filled).copyMemory(from: piece.base + headOffset, byteCount: count)
                    filled += count
                    consume(count)
                }
                failure = filter.write(UnsafeRawBufferPointer(rebasing: staging[0..<filled]))
            }
            if let failure { return failure }
            while let encoded = filter.takeOutput() { output.append(encoded) }
        }
        return nil
    }

    private mutating func consume(_ count: Int) {
        byteCount -= count
        headOffset += count
        if headOffset == chunks[head].count {
            head += 1
            headOffset = 0
        }
        chunks.releaseConsumed(head: &head)
    }
}
