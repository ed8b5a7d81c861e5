import CorkboardStore

/// Why the hub could not answer a request about a board (mapped to HTTP statuses and
/// WebSocket errors by the caller).
public enum HubError: Error, Sendable, Hashable, CustomStringConvertible {
    case notFound
    case alreadyExists
    /// The request itself is wrong (a bad body, `since` above the board's seq).
    case invalid(String)
    /// What was asked for is older than the kept history.
    case gone(String)
    /// The store could not be read or written.
    case unavailable(String)
    /// A configured limit (the number of boards) would be passed.
    case limitReached(String)

    public var description: String {
        switch self {
        case .notFound: "no such board"
        case .alreadyExists: "a board with this id already exists"
        case .invalid(let message), .gone(let message), .limitReached(let message): message
        case .unavailable(let reason): "storage unavailable: \(reason)"
        }
    }
}

/// How a store's failure reaches the hub's callers.
extension HubError {
    init(_ error: StoreError) {
        switch error {
        case .alreadyExists: self = .alreadyExists
        case .notFound: self = .notFound
        case .conflict(let seq): self = .unavailable("another writer moved the board to seq \(seq)")
        case .unavailable(let reason): self = .unavailable(reason)
        case .pruned: self = .gone(error.description)
        }
    }
}
