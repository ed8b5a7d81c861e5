/// The command line every peer takes: `--port N` (0: any free port) and `--host ADDRESS`
/// (127.0.0.1 by default; the peers are for loopback benchmarks).
public struct PeerOptions: Sendable {
    public var host = "127.0.0.1"
    public var port = 8080
    /// Largest WebSocket message the peers accept, the limit Corkboard's benchmarks give
    /// Corkboard, so a large echo is measured alike everywhere.
    public static let maxMessageBytes = 16 << 20

    public init(arguments: [String]) throws(UsageError) {
        var rest = arguments[...]
        while let flag = rest.popFirst() {
            guard let value = rest.popFirst() else { throw UsageError("\(flag) needs a value") }
            switch flag {
            case "--port":
                guard let port = Int(value), (0...65535).contains(port) else { throw UsageError("bad port \(value)") }
                self.port = port
            case "--host":
                host = value
            default:
                throw UsageError("unknown option \(flag)")
            }
        }
    }

    /// The one line scripts wait for; they read the port after the last ':'.
    public func listeningLine(port: Int) -> String {
        "listening on http://\(host):\(port)"
    }
}

public struct UsageError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = "\(description)\nusage: [--host 127.0.0.1] [--port N]" }
}
