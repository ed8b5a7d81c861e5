import Glibc
import Sockets

/// A complete response: status, headers, and a body held whole or made as it is sent.
public struct HTTPResponse: Sendable {
    public var status: HTTPStatus
    public var headers: HTTPHeaders
    public var body: [UInt8]
    /// A body made piece by piece as the client reads it, instead of `body` (which is then empty).
    public var stream: HTTPBodyStream?

    public init(status: HTTPStatus, headers: HTTPHeaders = [:], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A response whose body is written as the client reads it (see `HTTPBodyStream`).
    public init(status: HTTPStatus, headers: HTTPHeaders = [:], stream: HTTPBodyStream) {
        self.init(status: status, headers: headers)
        self.stream = stream
    }

    public static func text(_ status: HTTPStatus, _ text: String) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": "text/plain; charset=utf-8"], body: Array(text.utf8))
    }

    /// A JSON body given as already-encoded bytes.
    public static func json(_ status: HTTPStatus, _ body: [UInt8]) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": "application/json"], body: body)
    }

    /// A JSON error body `{"error": ..., "message": ...}`, the shape every error of the API takes.
    public static func error(_ status: HTTPStatus, _ message: String) -> HTTPResponse {
        let body = #"{"error":\#(JSONString.quote(status.reason.lowercased())),"message":\#(JSONString.quote(message))}"#
        return json(status, Array(body.utf8))
    }

    /// The bytes on the wire. `Content-Length`, `Date`, `Server` and `Connection` are filled in;
    /// a response to HEAD keeps the length of the body it does not send. With a `stream`, only
    /// the head: the connection sends the stream's pieces after it. A response that says
    /// `Transfer-Encoding` (an event stream, whose length nobody knows) gets no `Content-Length`.
    public func serialized(headRequest: Bool = false, keepAlive: Bool) -> ByteChunk {
        var text = "HTTP/1.1 \(status.code) \(status.reason)\r\n"
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        if !status.forbidsBody && !headers.contains("Content-Length") && !headers.contains("Transfer-Encoding") {
            text += "Content-Length: \(stream?.length ?? body.count)\r\n"
        }
        if !headers.contains("Date") { text += "Date: \(HTTPDate.now())\r\n" }
        if !headers.contains("Server") { text += "Server: corkboard\r\n" }
        if !keepAlive && !headers.contains("Connection") { text += "Connection: close\r\n" }
        text += "\r\n"
        var bytes = Array(text.utf8)
        if !headRequest && !status.forbidsBody { bytes += body }
        return ByteChunk(bytes)
    }
}

/// A body too large to hold whole for a client that may not read it (a board of tens of MB):
/// the connection asks for its next piece only as the socket takes the previous ones, so a
/// client that stops reading holds a few pieces of server memory, not the whole body.
public struct HTTPBodyStream: Sendable {
    /// The body's length in bytes, sent as `Content-Length`: the pieces must add up to it.
    public let length: Int
    let makePieces: @Sendable () -> () -> [UInt8]?

    /// `pieces` is called once per response sent, on the connection's loop, and returns the
    /// function that gives the next piece (nil after the last).
    public init(length: Int, pieces: @escaping @Sendable () -> () -> [UInt8]?) {
        self.length = length
        makePieces = pieces
    }
}

/// IMF-fixdate, e.g. `Sun, 06 Nov 1994 08:49:37 GMT`.
enum HTTPDate {
    static func now() -> String { format(time(nil)) }

    static func format(_ seconds: time_t) -> String {
        var seconds = seconds
        var parts = tm()
        gmtime_r(&seconds, &parts)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(parts.tm_year + 1900) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }
}

/// Quotes a string as a JSON string literal, for the few bodies this module writes itself.
public enum JSONString {
    public static func quote(_ string: String) -> String {
        var out = "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
