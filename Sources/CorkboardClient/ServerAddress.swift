/// A `ws://host:port/path` or `wss://host:port/path` URL taken apart.
public struct ServerAddress: Sendable, Hashable {
    public var host: String
    public var port: UInt16
    public var path: String
    /// `wss://`: TLS, with the server's certificate verified.
    public var usesTLS: Bool

    public struct Invalid: Error, CustomStringConvertible {
        public let description: String
    }

    public init(host: String, port: UInt16, path: String = "/ws", usesTLS: Bool = false) {
        self.host = host
        self.port = port
        self.path = path
        self.usesTLS = usesTLS
    }

    /// `ws://127.0.0.1:8080`, `ws://[::1]:8080/ws`, `ws://example.org` (port 80),
    /// `wss://example.org` (port 443). A URL without a path (or with `/`) means `/ws`, where
    /// the server speaks the protocol.
    public init(url: String) throws(Invalid) {
        let scheme: String
        if url.hasPrefix("ws://") {
            scheme = "ws://"
        } else if url.hasPrefix("wss://") {
            scheme = "wss://"
        } else {
            throw Invalid(description: "the URL must start with ws:// or wss://, not \(url.debugDescription)")
        }
        usesTLS = scheme == "wss://"
        var rest = Substring(url.dropFirst(scheme.count))
        var path = "/ws"
        if let slash = rest.firstIndex(of: "/") {
            let given = String(rest[slash...])
            if given != "/" { path = given }
            rest = rest[..<slash]
        }
        var host: Substring
        var portText: Substring?
        if rest.hasPrefix("[") {
            // An IPv6 literal: [::1]:8080
            guard let close = rest.firstIndex(of: "]") else { throw Invalid(description: "unclosed [ in \(url)") }
            host = rest[rest.index(after: rest.startIndex)..<close]
            let after = rest[rest.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw Invalid(description: "unexpected text after ] in \(url)") }
                portText = after.dropFirst()
            }
        } else if let colon = rest.lastIndex(of: ":") {
            host = rest[..<colon]
            portText = rest[rest.index(after: colon)...]
        } else {
            host = rest
        }
        guard !host.isEmpty else { throw Invalid(description: "no host in \(url)") }
        var port: UInt16 = usesTLS ? 443 : 80
        if let portText {
            guard let number = UInt16(portText), number > 0 else { throw Invalid(description: "bad port \(String(portText).debugDescription) in \(url)") }
            port = number
        }
        self.host = String(host)
        self.port = port
        self.path = path
    }
}
