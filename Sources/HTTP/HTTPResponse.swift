import Glibc
import Sockets

/// A complete response: status, headers, body.
public struct HTTPResponse: Sendable {
    public var status: HTTPStatus
    public var headers: HTTPHeaders
    public var body: [UInt8]

    public init(status: HTTPStatus, headers: HTTPHeaders = [:], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
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
    /// a response to HEAD keeps the length of the body it does not send.
    public func serialized(headRequest: Bool = false, keepAlive: Bool) -> ByteChunk {
        var text = "HTTP/1.1 \(status.code) \(status.reason)\r\n"
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        if !status.forbidsBody && !headers.contains("Content-Length") { text += "Content-Length: \(body.count)\r\n" }
        if !headers.contains("Date") { text += "Date: \(HTTPDate.now())\r\n" }
        if !headers.contains("Server") { text += "Server: corkboard\r\n" }
        if !keepAlive && !headers.contains("Connection") { text += "Connection: close\r\n" }
        text += "\r\n"
        var bytes = Array(text.utf8)
        if !headRequest && !status.forbidsBody { bytes += body }
        return ByteChunk(bytes)
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
