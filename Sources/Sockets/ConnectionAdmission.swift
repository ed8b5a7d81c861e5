import Synchronization

/// How many connections a server holds at once, in total and per client address.
public struct AdmissionLimits: Sendable, Hashable {
    /// Open connections in total; nil: no limit.
    public var maxConnections: Int?
    /// Open connections from one client address (IPv6 clients by their full address); nil: no limit.
    public var maxConnectionsPerAddress: Int?
    /// Loopback clients (127.0.0.0/8, ::1) are never counted per address: local tools, tests
    /// and benchmarks open thousands of connections from one address. (A reverse proxy on the
    /// same machine is loopback too: per-address limits then belong in the proxy.)
    public var exemptsLoopback = true

    public init(maxConnections: Int? = nil, maxConnectionsPerAddress: Int? = nil) {
        self.maxConnections = maxConnections
        self.maxConnectionsPerAddress = maxConnectionsPerAddress
    }
}

/// Why a new connection was turned away.
public enum AdmissionRefusal: Sendable, Hashable, CustomStringConvertible {
    case serverFull(limit: Int)
    case addressFull(limit: Int)

    public var description: String {
        switch self {
        case .serverFull(let limit): "the server holds its maximum of \(limit) connections; retry later"
        case .addressFull(let limit): "your address holds its maximum of \(limit) connections; close one first"
        }
    }
}

/// Counts open connections against `AdmissionLimits`. `admit` and `release` are called in
/// pairs (at accept and at close), from any thread.
public final class ConnectionAdmission: Sendable {
    public let limits: AdmissionLimits

    private struct State {
        var total = 0
        var byAddress: [String: Int] = [:]
    }

    private let state = Mutex(State())

    public init(_ limits: AdmissionLimits) { self.limits = limits }

    /// The key a connection from `address` is counted under per address; nil when it is not.
    func addressKey(_ address: SocketAddress?) -> String? {
        guard limits.maxConnectionsPerAddress != nil, let address else { return nil }
        if limits.exemptsLoopback && address.isLoopback { return nil }
        return address.host
    }

    /// Counts the connection in, or says why it may not come in (then nothing is counted).
    public func admit(_ address: SocketAddress?) -> AdmissionRefusal? {
        let key = addressKey(address)
        return state.withLock { state in
            if let limit = limits.maxConnections, state.total >= limit { return .serverFull(limit: limit) }
            if let key, let limit = limits.maxConnectionsPerAddress, state.byAddress[key, default: 0] >= limit {
                return .addressFull(limit: limit)
            }
            state.total += 1
            if let key { state.byAddress[key, default: 0] += 1 }
            return nil
        }
    }

    /// Counts an admitted connection out.
    public func release(_ address: SocketAddress?) {
        let key = addressKey(address)
        state.withLock { state in
            state.total -= 1
            if let key {
                let left = state.byAddress[key, default: 1] - 1
                state.byAddress[key] = left > 0 ? left : nil
            }
        }
    }
}
