import Glibc

/// The bytes a connection still owes its peer, in order, written with one `sendmsg` per batch.
struct OutputQueue {
    private var chunks: [ByteChunk] = []
    private var head = 0
    /// Bytes of `chunks[head]` already written.
    private var headOffset = 0
    private(set) var byteCount = 0

    /// At most this many buffers per `sendmsg` (Linux's IOV_MAX is 1024; 64 already fills a socket buffer).
    static let maxVectors = 64

    var isEmpty: Bool { byteCount == 0 }

    mutating func append(_ chunk: ByteChunk) {
        guard chunk.count > 0 else { return }
        chunks.append(chunk)
        byteCount += chunk.count
    }

    /// What flushes wrote: bytes, `sendmsg` calls, and chunks (sends) finished, from which
    /// the counters tell how many sends share a system call.
    struct Tally: Equatable {
        var bytes = 0
        var calls = 0
        var chunks = 0
    }

    /// Writes as much as the socket takes, adding what it wrote to `tally`. Returns
    /// `.wouldBlock` when bytes remain, `.transferred(total)` when everything queued went out,
    /// `.failed` on an error.
    mutating func flush(to socket: Socket, tally: inout Tally) -> Socket.IOResult {
        var total = 0
        while !isEmpty {
            let count = min(Self.maxVectors, chunks.count - head)
            // On the stack: a flush per connection per broadcast is the fan-out's hot path.
            let result = withUnsafeTemporaryAllocation(of: iovec.self, capacity: count) { vectors in
                for i in 0..<count {
                    let chunk = chunks[head + i]
                    let skip = i == 0 ? headOffset : 0
                    vectors[i] = iovec(iov_base: UnsafeMutableRawPointer(mutating: chunk.base + skip), iov_len: chunk.count - skip)
                }
                return socket.send(vectors)
            }
            tally.calls += 1
            switch result {
            case .transferred(let written):
                total += written
                tally.bytes += written
                tally.chunks += consume(written)
            case .wouldBlock, .endOfFile:
                return .wouldBlock
            case .failed:
                return result
            }
        }
        return .transferred(total)
    }

    /// Frees the array's storage of an empty queue (`Connection.releaseIdleStorage`); the
    /// next append allocates it again.
    mutating func releaseStorage() {
        guard isEmpty else { return }
        chunks = []
        head = 0
        headOffset = 0
    }

    /// Drops `written` bytes from the front; returns how many chunks that finished.
    private mutating func consume(_ written: Int) -> Int {
        var finished = 0
        var remaining = written
        byteCount -= written
        while remaining > 0 {
            let left = chunks[head].count - headOffset
            if remaining >= left {
                remaining -= left
                head += 1
                headOffset = 0
                finished += 1
            } else {
                headOffset += remaining
                remaining = 0
            }
        }
        chunks.releaseConsumed(head: &head)
        return finished
    }
}
