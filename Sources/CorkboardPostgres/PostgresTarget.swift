/// Where a connection string points, as `host:port` for people to read: never the user
/// name, the password or other parameters, which the string may also hold.
enum PostgresTarget {
    static func describe(_ url: String) -> String {
        let (host, port) = url.hasPrefix("postgres://") || url.hasPrefix("postgresql://") ? fromURL(url) : fromKeywords(url)
        return "\(host ?? "localhost"):\(port ?? "5432")"
    }

    /// `postgres://user:secret@host:port/database?options`.
    private static func fromURL(_ url: String) -> (String?, String?) {
        guard let scheme = url.range(of: "://") else { return (nil, nil) }
        var rest = url[scheme.upperBound...]
        if let end = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) { rest = rest[..<end] }
        if let at = rest.lastIndex(of: "@") { rest = rest[rest.index(after: at)...] }
        guard !rest.isEmpty else { return (nil, nil) }
        // `[::1]:5432`: the port follows the bracket.
        if rest.hasPrefix("["), let close = rest.firstIndex(of: "]") {
            let port = rest[rest.index(after: close)...].dropFirst()
            return (String(rest[...close]), port.isEmpty ? nil : String(port))
        }
        let parts = rest.split(separator: ":", maxSplits: 1)
        return (parts.first.map(String.init), parts.count > 1 ? String(parts[1]) : nil)
    }

    /// `host=db port=5433 dbname=corkboard`.
    private static func fromKeywords(_ string: String) -> (String?, String?) {
        var host: String?
        var port: String?
        for pair in string.split(separator: " ") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            guard parts.count == 2 else { continue }
            if parts[0] == "host" || parts[0] == "hostaddr" { host = String(parts[1]) }
            if parts[0] == "port" { port = String(parts[1]) }
        }
        return (host, port)
    }
}
