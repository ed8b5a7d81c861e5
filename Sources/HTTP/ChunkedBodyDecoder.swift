/// A resumable decoder of a `Transfer-Encoding: chunked` request body (RFC 9112 §7.1): bytes
/// in, the body out once its last chunk and trailer section have arrived. No sockets involved.
///
/// Every HTTP/1.1 recipient must parse chunked (`curl -T -`, `fetch` with a stream body send
/// it). The body is bounded like a `Content-Length` one (`maxBodyBytes`); chunk extensions and
/// trailer fields are read past and ignored, each line bounded so that neither a size line nor
/// a trailer can make the server hold more than `maxLineBytes` of framing.
struct ChunkedBodyDecoder: Sendable {
    private enum State: Sendable {
        /// `chunk-size [ chunk-ext ] CRLF`
        case sizeLine
        /// `chunk-data`: this many bytes left of the current chunk.
        case data(remaining: Int)
        /// The CRLF after a chunk's data.
        case dataEnd
        /// `*( field-line CRLF ) CRLF` after the last chunk; `received` bytes of it so far.
        case trailers(received: Int)
        case done
    }

    /// The longest size line or trailer line accepted (without its line end).
    static let maxLineBytes = 4096

    let maxBodyBytes: Int
    let maxTrailerBytes: Int
    private var state = State.sizeLine
    private(set) var body: [UInt8] = []

    init(maxBodyBytes: Int, maxTrailerBytes: Int) {
        self.maxBodyBytes = maxBodyBytes
        self.maxTrailerBytes = maxTrailerBytes
    }

    var isDone: Bool {
        if case .done = state { return true }
        return false
    }

    /// Decodes what it can of `bytes[start..<end]` and returns the index it got to. The bytes
    /// before it are consumed; a partial line is left for the next call, whole.
    mutating func decode(_ bytes: [UInt8], from start: Int) throws(HTTPParseError) -> Int {
        var index = start
        while true {
            switch state {
            case .sizeLine:
                guard let (line, next) = try Self.line(in: bytes, from: index) else { return index }
                let size = try Self.chunkSize(line)
                guard size <= maxBodyBytes - body.count else { throw .bodyTooLarge }
                state = size == 0 ? .trailers(received: 0) : .data(remaining: size)
                index = next
            case .data(let remaining):
                let available = min(remaining, bytes.count - index)
                guard available > 0 else { return index }
                body.append(contentsOf: bytes[index..<index + available])
                index += available
                state = remaining == available ? .dataEnd : .data(remaining: remaining - available)
            case .dataEnd:
                guard let (line, next) = try Self.line(in: bytes, from: index) else { return index }
                guard line.isEmpty else { throw .malformedChunkedBody }
                state = .sizeLine
                index = next
            case .trailers(let received):
                guard let (line, next) = try Self.line(in: bytes, from: index) else { return index }
                let total = received + next - index
                guard total <= maxTrailerBytes else { throw .headerBlockTooLarge }
                state = line.isEmpty ? .done : .trailers(received: total)
                index = next
            case .done:
                return index
            }
        }
    }

    /// The line starting at `start` without its CRLF (a bare LF is refused: in a body's framing
    /// a lenient reading is a smuggling shape), and the index after it; nil until it is whole.
    private static func line(in bytes: [UInt8], from start: Int) throws(HTTPParseError) -> (ArraySlice<UInt8>, Int)? {
        var index = start
        while index < bytes.count {
            if bytes[index] == .lf {
                guard index > start, bytes[index - 1] == .cr else { throw .malformedChunkedBody }
                return (bytes[start..<index - 1], index + 1)
            }
            index += 1
            if index - start > maxLineBytes + 2 { throw .malformedChunkedBody }
        }
        return nil
    }

    /// `1*HEXDIG`, then optional extensions after `;` (ignored). Whitespace before the `;` is
    /// allowed (RFC 9112 §7.1.1 BWS); anything else is malformed.
    private static func chunkSize(_ line: ArraySlice<UInt8>) throws(HTTPParseError) -> Int {
        var size = 0
        var digits = 0
        var index = line.startIndex
        while index < line.endIndex, let digit = hexValue(line[index]) {
            // 15 hex digits are 2^60: more than any body limit, and no overflow.
            guard digits < 15 else { throw .bodyTooLarge }
            size = size * 16 + digit
            digits += 1
            index += 1
        }
        guard digits > 0 else { throw .malformedChunkedBody }
        while index < line.endIndex, line[index] == .space || line[index] == .tab { index += 1 }
        guard index == line.endIndex || line[index] == UInt8(ascii: ";") else { throw .malformedChunkedBody }
        return size
    }

    private static func hexValue(_ byte: UInt8) -> Int? {
        switch byte {
        case .zero ... .nine: Int(byte - .zero)
        case UInt8(ascii: "a")...UInt8(ascii: "f"): Int(byte - UInt8(ascii: "a")) + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): Int(byte - UInt8(ascii: "A")) + 10
        default: nil
        }
    }
}
