import CZlib
import WebSocket

/// A raw-deflate compressor (RFC 7692 §7.2.1): each message is flushed with Z_SYNC_FLUSH and
/// the trailing 00 00 FF FF is removed. The zlib state is allocated on first use and freed
/// by `release()` (after each message without context takeover) or on deinit.
final class Deflater {
    private var stream = z_stream()
    private var active = false
    let windowBits: Int
    let level: Int32
    /// memLevel 8 is zlib's default; 4 halves the hash table for small windows.
    let memoryLevel: Int32

    init(windowBits: Int, level: Int32) {
        self.windowBits = windowBits
        self.level = level
        memoryLevel = windowBits <= 10 ? 4 : 8
    }

    deinit { release() }

    func compress(_ input: [UInt8]) -> [UInt8]? {
        if !active {
            // deflateInit2 is a macro; its function form takes the version and struct size.
            guard
                deflateInit2_(
                    &stream, level, Z_DEFLATED, -Int32(windowBits), memoryLevel, Z_DEFAULT_STRATEGY,
                    ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK
            else { return nil }
            active = true
        }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: max(256, input.count / 2 + 64))
        var input = input
        let status: Int32 = input.withUnsafeMutableBufferPointer { inBuffer in
            stream.next_in = inBuffer.baseAddress
            stream.avail_in = uInt(inBuffer.count)
            var status = Z_OK
            repeat {
                status = chunk.withUnsafeMutableBufferPointer { outBuffer in
                    stream.next_out = outBuffer.baseAddress
                    stream.avail_out = uInt(outBuffer.count)
                    return deflate(&stream, Z_SYNC_FLUSH)
                }
                output += chunk[0..<(chunk.count - Int(stream.avail_out))]
            } while status == Z_OK && stream.avail_out == 0
            return status
        }
        guard status == Z_OK || status == Z_BUF_ERROR, output.suffix(4) == [0, 0, 0xFF, 0xFF] else { return nil }
        output.removeLast(4)
        return output
    }

    /// Forgets the window (no context takeover) and frees zlib's memory until the next message.
    func release() {
        guard active else { return }
        deflateEnd(&stream)
        stream = z_stream()
        active = false
    }
}

/// A raw-deflate decompressor with a cap on its output: a small message that inflates to
/// gigabytes (a deflate bomb) stops at the cap with `messageTooLarge`, having used at most
/// the cap in memory.
final class Inflater {
    private var stream = z_stream()
    private var active = false
    let windowBits: Int

    init(windowBits: Int) { self.windowBits = windowBits }

    deinit { release() }

    /// Inflates `input`; on the message's last piece the 00 00 FF FF tail is put back first.
    func decompress(_ input: [UInt8], isFinal: Bool, limit: Int) throws(WebSocketError) -> [UInt8] {
        if !active {
            guard inflateInit2_(&stream, -Int32(windowBits), ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
                throw .compression("cannot start the decompressor")
            }
            active = true
        }
        var input = isFinal ? input + [0, 0, 0xFF, 0xFF] : input
        if input.isEmpty { return [] }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        var failure: WebSocketError?
        input.withUnsafeMutableBufferPointer { inBuffer in
            stream.next_in = inBuffer.baseAddress
            stream.avail_in = uInt(inBuffer.count)
            while true {
                let status = chunk.withUnsafeMutableBufferPointer { outBuffer in
                    stream.next_out = outBuffer.baseAddress
                    stream.avail_out = uInt(outBuffer.count)
                    return inflate(&stream, Z_SYNC_FLUSH)
                }
                let produced = chunk.count - Int(stream.avail_out)
                if output.count + produced > limit {
                    failure = .messageTooLarge(limit)
                    return
                }
                output += chunk[0..<produced]
                switch status {
                case Z_OK where stream.avail_in > 0 || stream.avail_out == 0: continue
                case Z_OK, Z_BUF_ERROR: return
                case Z_STREAM_END:
                    // The sender ended its deflate stream (BFINAL): what follows starts a new one.
                    inflateReset(&stream)
                    if stream.avail_in > 0 { continue }
                    return
                default:
                    failure = .compression(stream.msg.map { String(cString: $0) } ?? "invalid deflate data (\(status))")
                    return
                }
            }
        }
        if let failure { throw failure }
        return output
    }

    func release() {
        guard active else { return }
        inflateEnd(&stream)
        stream = z_stream()
        active = false
    }
}
