import Sockets

/// An incremental HTTP/1.1 request parser: bytes in, requests out. No sockets involved.
///
/// Feed it with `append` whatever `read(2)` returned, then call `next()` until it returns nil
/// (needs more bytes). Requests come out in order, so pipelining needs nothing special. After
/// an error the parser stays failed: the connection answers with `error.status` and closes.
public struct HTTPRequestParser: Sendable {
    public struct Limits: Sendable {
        public var maxHeaderBytes: Int
        public var maxURILength: Int
        public var maxBodyBytes: Int
        public var maxHeaderCount: Int

        public init(maxHeaderBytes: Int = 16 * 1024, maxURILength: Int = 8 * 1024, maxBodyBytes: Int = 1024 * 1024, maxHeaderCount: Int = 100) {
            self.maxHeaderBytes = maxHeaderBytes
            self.maxURILength = maxURILength
            self.maxBodyBytes = maxBodyBytes
            self.maxHeaderCount = maxHeaderCount
        }

        /// The longest request line (without its line end): "GET " + target + " HTTP/1.1",
        /// plus a little room for a long method name. Checked on the line as it arrives and
        /// again on the whole head, so the verdict never depends on how the bytes were cut.
        public var maxRequestLineLength: Int { maxURILength + 32 }
    }

    public enum Event: Sendable {
        case request(HTTPRequest)
        /// The head asked `Expect: 100-continue` and its body has not arrived yet:
        /// the connection should send `100 Continue`.
        case continueExpected
    }

    public let limits: Limits
    private var input = InputBuffer(retainedCapacity: 64 * 1024)
    /// Index up to which the current head has been searched for its end.
    private var scanned = 0
    /// How the body of a parsed head arrives.
    private enum Framing: Sendable {
        case length(Int)
        case chunked(ChunkedBodyDecoder)
    }

    /// A parsed head waiting for its body.
    private var pending: (request: HTTPRequest, framing: Framing)?
    private var failure: HTTPParseError?

    public init(limits: Limits = Limits()) { self.limits = limits }

    /// Bytes received and not yet part of a returned request.
    public var bufferedByteCount: Int { input.count }

    /// True between the first byte of a request and the moment it is complete.
    public var isMidRequest: Bool { pending != nil || bufferedByteCount > 0 }

    /// True once the head of the current request is parsed (its body may still be arriving).
    public var hasCompleteHead: Bool { pending != nil }

    public mutating func append(_ bytes: UnsafeRawBufferPointer) {
        scanned -= input.append(bytes)
    }

    public mutating func append<Bytes: Sequence<UInt8>>(_ bytes: Bytes) {
        scanned -= input.append(bytes)
    }

    /// The bytes after the last request, for the protocol that takes over after an upgrade.
    public mutating func takeRemainingBytes() -> [UInt8] {
        scanned = 0
        return input.takeAll()
    }

    public mutating func next() throws(HTTPParseError) -> Event? {
        if let failure { throw failure }
        do {
            return try step()
        } catch {
            failure = error
            throw error
        }
    }

    private mutating func step() throws(HTTPParseError) -> Event? {
        if let (request, framing) = pending {
            guard let body = try body(framing) else { return nil }
            var complete = request
            complete.body = body
            pending = nil
            return .request(complete)
        }
        skipLeadingEmptyLines()
        guard let headEnd = try findHeadEnd() else { return nil }
        let head = input.bytes[input.start..<headEnd]
        input.start = headEnd
        scanned = headEnd
        let request = try HTTPHeadParser(limits: limits).parse(head)
        let framing = try self.framing(of: request)
        if case .length(0) = framing { return .request(request) }
        pending = (request, framing)
        if request.headers.tokens("Expect").contains("100-continue") && !hasBodyBytes(framing) {
            return .continueExpected
        }
        return try step()
    }

    /// The whole body once it has arrived, consuming it; nil (with a chunked body's progress
    /// kept) until then.
    private mutating func body(_ framing: Framing) throws(HTTPParseError) -> [UInt8]? {
        switch framing {
        case .length(let length):
            guard bufferedByteCount >= length else { return nil }
            defer { input.start += length }
            return Array(input.bytes[input.start..<input.start + length])
        case .chunked(var decoder):
            input.start = try decoder.decode(input.bytes, from: input.start)
            scanned = input.start
            guard decoder.isDone else {
                pending?.framing = .chunked(decoder)
                return nil
            }
            return decoder.body
        }
    }

    /// Whether any of the body has arrived (a `100 Continue` is only worth sending before).
    private func hasBodyBytes(_ framing: Framing) -> Bool {
        switch framing {
        case .length(let length): bufferedByteCount >= length
        case .chunked: bufferedByteCount > 0
        }
    }

    /// RFC 9112 §2.2: a server should ignore empty lines before a request line
    /// (some clients send a CRLF after a POST body).
    private mutating func skipLeadingEmptyLines() {
        while input.start < input.bytes.count, input.bytes[input.start] == .cr || input.bytes[input.start] == .lf {
            if input.bytes[input.start] == .cr && input.start + 1 == input.bytes.count { return }
            input.start += 1
        }
        scanned = max(scanned, input.start)
    }

    /// The index just past the blank line that ends the head, or nil if it has not arrived.
    private mutating func findHeadEnd() throws(HTTPParseError) -> Int? {
        var index = max(scanned, input.start)
        var firstLineEnd = input.bytes[input.start..<input.bytes.count].firstIndex(of: .lf)
        while index < input.bytes.count {
            if input.bytes[index] == .lf {
                firstLineEnd = firstLineEnd ?? index
                let previous = index - 1
                if previous >= input.start && input.bytes[previous] == .lf
                    || previous - 1 >= input.start && input.bytes[previous] == .cr && input.bytes[previous - 1] == .lf
                {
                    if index + 1 - input.start > limits.maxHeaderBytes { throw .headerBlockTooLarge }
                    return index + 1
                }
            }
            index += 1
        }
        scanned = index
        // The request line so far, without the CR of its CRLF (which may be all that arrived).
        let lineEnd = firstLineEnd ?? input.bytes.count
        let lineLength = lineEnd - input.start - (lineEnd > input.start && input.bytes[lineEnd - 1] == .cr ? 1 : 0)
        if lineLength > limits.maxRequestLineLength { throw .uriTooLong }
        if bufferedByteCount > limits.maxHeaderBytes { throw .headerBlockTooLarge }
        return nil
    }

    private func framing(of request: HTTPRequest) throws(HTTPParseError) -> Framing {
        let expectations = request.headers.tokens("Expect")
        if !expectations.isEmpty && expectations != ["100-continue"] { throw .unsupportedExpectation }
        let lengths = request.headers.tokens("Content-Length")
        if request.headers.contains("Transfer-Encoding") {
            if !lengths.isEmpty || request.version == .http1_0 { throw .conflictingFraming }
            // RFC 9112 §6.1: chunked must be the final coding, and the only one served here.
            guard request.headers.tokens("Transfer-Encoding") == ["chunked"] else {
                throw .unsupportedTransferEncoding
            }
            return .chunked(ChunkedBodyDecoder(maxBodyBytes: limits.maxBodyBytes, maxTrailerBytes: limits.maxHeaderBytes))
        }
        guard request.headers.contains("Content-Length") else { return .length(0) }
        // A Content-Length whose value is empty (or only commas) is invalid, not absent:
        // reading it as "no body" would frame the request differently from a proxy in front.
        guard let first = lengths.first, lengths.allSatisfy({ $0 == first }), !first.isEmpty, first.utf8.allSatisfy({ $0 >= .zero && $0 <= .nine }) else {
            throw .invalidContentLength
        }
        guard first.count <= 15, let length = Int(first) else { throw .bodyTooLarge }
        if length > limits.maxBodyBytes { throw .bodyTooLarge }
        return .length(length)
    }
}

extension UInt8 {
    static let cr = UInt8(ascii: "\r")
    static let lf = UInt8(ascii: "\n")
    static let space = UInt8(ascii: " ")
    static let tab = UInt8(ascii: "\t")
    static let colon = UInt8(ascii: ":")
    static let zero = UInt8(ascii: "0")
    static let nine = UInt8(ascii: "9")

    /// RFC 9110 token characters (method and header names).
    var isTokenCharacter: Bool {
        switch self {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), .zero ... .nine: return true
        default: return Array("!#$%&'*+-.^_`|~".utf8).contains(self)
        }
    }
}
