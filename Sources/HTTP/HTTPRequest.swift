import Sockets

/// One parsed request. The body is complete (Content-Length bodies only).
public struct HTTPRequest: Sendable {
    public var method: HTTPMethod
    /// The request target as sent (origin-form, or the path of an absolute-form target).
    public var target: String
    public var version: HTTPVersion
    public var headers: HTTPHeaders
    public var body: [UInt8]
    /// Filled by the router from `{name}` segments of the matched pattern.
    public var pathParameters: [String: String] = [:]
    /// The TCP peer's address, filled by the server connection (nil in tests that build requests).
    public var remoteAddress: SocketAddress?
    /// The client's address as a proxy in front forwarded it, when the server trusts that
    /// proxy (`HTTPServerConfiguration.forwardedClient`); nil: the peer is the client.
    public var forwardedClient: String?

    /// The client's numeric address: the forwarded one, else the peer's host. What per-client
    /// rates are counted by and logs name.
    public var clientAddress: String? { forwardedClient ?? remoteAddress?.host }

    public init(method: HTTPMethod, target: String, version: HTTPVersion = .http1_1, headers: HTTPHeaders = [:], body: [UInt8] = []) {
        self.method = method
        self.target = target
        self.version = version
        self.headers = headers
        self.body = body
    }

    /// The path part of the target, still percent-encoded.
    public var path: String {
        String(target.prefix { $0 != "?" && $0 != "#" })
    }

    /// The query string (without `?`), if any.
    public var query: String? {
        guard let mark = target.firstIndex(of: "?") else { return nil }
        return String(target[target.index(after: mark)...].prefix { $0 != "#" })
    }

    /// Query parameters, percent-decoded; `+` is a space as in HTML forms. A name given twice
    /// keeps its last value (see `queryPairs` for a route that refuses repeats).
    public var queryItems: [String: String] {
        Dictionary(queryPairs, uniquingKeysWith: { _, last in last })
    }

    /// Query parameters in the order sent, repeats included, decoded as in `queryItems`.
    public var queryPairs: [(name: String, value: String)] {
        (query ?? "").split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let decode = { (s: Substring) in PercentDecoding.decode(String(s.map { $0 == "+" ? " " : $0 })) ?? String(s) }
            return (decode(parts[0]), parts.count > 1 ? decode(parts[1]) : "")
        }
    }

    /// HTTP/1.1 keeps the connection unless told `close`; HTTP/1.0 closes unless told `keep-alive`.
    public var keepAlive: Bool {
        let connection = headers.tokens("Connection")
        if version == .http1_0 { return connection.contains("keep-alive") }
        return !connection.contains("close")
    }
}

public struct HTTPVersion: Hashable, Sendable, CustomStringConvertible {
    public let major: Int
    public let minor: Int
    public static let http1_0 = HTTPVersion(major: 1, minor: 0)
    public static let http1_1 = HTTPVersion(major: 1, minor: 1)
    public var description: String { "HTTP/\(major).\(minor)" }
}
