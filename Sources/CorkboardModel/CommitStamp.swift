/// When and by whom an operation was committed (docs/protocol.md#outcomes): taken by the hub
/// and handed to `BoardEngine.apply`, which copies it into the ``CommittedEvent``. The engine
/// reads no clock and knows no tokens, so it stays pure and deterministic, and the answer it
/// remembers for an opId carries the stamp of its first commit, byte for byte.
public struct CommitStamp: Sendable, Hashable {
    /// The server's commit time in milliseconds since 1970-01-01 UTC (the event's `at`).
    public var at: Int
    /// The author (the event's `by`): a signed token's subject, else the name given in `hello`.
    public var by: String

    public init(at: Int, by: String) {
        self.at = at
        self.by = by
    }
}
