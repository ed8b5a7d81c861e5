import Foundation
import Glibc

/// The server a network benchmark measures: one given by URL, or a fresh `corkboard-bench serve`
/// child process (the executable running the bench): the server as `corkboard serve` runs it,
/// with the test WebSockets (`/ws/echo`, `/ws/broadcast`) that `ws-echo` and `ws-fanout` use.
public final class BenchTarget {
    public let host: String
    public let port: UInt16
    private let child: ServerChild?
    /// The process id of an external server, given so that its memory can be read.
    private let externalPID: Int32?

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// `url` like `ws://127.0.0.1:8080`; nil starts our own server on a free loopback port,
    /// with `serverArguments` added to its command line. `serverPID`: the process id of the
    /// server at `url`, for its memory.
    public init(url: String?, serverArguments: [String] = [], serverPID: Int32? = nil) throws {
        Self.raiseDescriptorLimit()
        externalPID = url == nil ? nil : serverPID
        if let url {
            guard let components = URLComponents(string: url), let host = components.host, let port = components.port else {
                throw Failure(description: "cannot read host and port from '\(url)'")
            }
            self.host = host
            self.port = UInt16(port)
            child = nil
            return
        }
        let child = try ServerChild(arguments: ["--max-message-bytes", String(16 << 20)] + serverArguments)
        try child.start()
        host = "127.0.0.1"
        port = child.port
        self.child = child
    }

    /// Resident memory of the server, in bytes: our own child, or an external server whose
    /// process id was given (nil otherwise).
    public var serverResidentBytes: Int? {
        serverProcessIDForMeasuring.flatMap(residentBytes(of:))
    }

    /// Our own server child's data folder (`--data`; nil for an external server).
    public var dataDirectory: URL? { child?.dataDirectory }

    /// Our own server child's process id (nil for an external server).
    public var serverProcessID: Int32? { child?.processIdentifier }

    /// The process whose memory and CPU the scenarios read: our own child, or the external
    /// server whose process id was given.
    var serverProcessIDForMeasuring: Int32? { child?.processIdentifier ?? externalPID }

    /// Ten thousand connections need more descriptors than the usual soft limit of 1,024;
    /// the child server inherits the raised limit.
    static func raiseDescriptorLimit() {
        var limit = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        limit.rlim_cur = limit.rlim_max
        setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }
}

/// Percentiles of a set of durations (seconds), for reports.
struct Percentiles {
    let sorted: [Double]
    init(_ values: [Double]) { sorted = values.sorted() }

    func value(_ fraction: Double) -> Double {
        guard !sorted.isEmpty else { return .nan }
        return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * fraction).rounded()))]
    }

    var summary: String {
        String(
            format: "p50 %.2f ms  p95 %.2f ms  p99 %.2f ms  max %.2f ms",
            value(0.5) * 1000, value(0.95) * 1000, value(0.99) * 1000, (sorted.last ?? .nan) * 1000)
    }
}
