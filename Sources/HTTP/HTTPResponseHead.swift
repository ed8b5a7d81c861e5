/// The status line and header fields of a response, as a client reads them
/// (the WebSocket client's handshake).
public struct HTTPResponseHead: Sendable {
    public let status: Int
    public let reason: String
    public let headers: HTTPHeaders

    /// Parses the head at the front of `bytes`: nil until the blank line has arrived,
    /// otherwise the head and how many bytes it took. Heads over `limit` bytes are an error.
    public static func parse(_ bytes: [UInt8], limit: Int = 16 * 1024) throws(HTTPParseError) -> (HTTPResponseHead, Int)? {
        guard let end = headEnd(bytes) else {
            if bytes.count > limit { throw .headerBlockTooLarge }
            return nil
        }
        var lines = try HTTPHeadParser.splitLines(bytes[0..<end])
        guard !lines.isEmpty else { throw .malformedRequestLine }
        let statusLine = lines.removeFirst().split(separator: .space, maxSplits: 2, omittingEmptySubsequences: false)
        guard statusLine.count >= 2, statusLine[0].starts(with: Array("HTTP/1.".utf8)),
            statusLine[1].count == 3, let status = Int(String(decoding: statusLine[1], as: UTF8.self))
        else {
            throw .malformedRequestLine
        }
        var headers = HTTPHeaders()
        for line in lines where !line.isEmpty {
            let (name, value) = try HTTPHeadParser.parseField(line)
            headers.add(name, value)
        }
        let reason = statusLine.count > 2 ? String(decoding: statusLine[2], as: UTF8.self) : ""
        return (HTTPResponseHead(status: status, reason: reason, headers: headers), end)
    }

    /// The index just past the blank line that ends the head.
    private static func headEnd(_ bytes: [UInt8]) -> Int? {
        var index = 0
        while index < bytes.count {
            if bytes[index] == .lf {
                if index >= 1 && bytes[index - 1] == .lf { return index + 1 }
                if index >= 2 && bytes[index - 1] == .cr && bytes[index - 2] == .lf { return index + 1 }
            }
            index += 1
        }
        return nil
    }
}
