/// How hard a commit works to reach the disk (SQLite's `PRAGMA synchronous`, in WAL mode).
///
/// - `full` (default): the WAL is fsynced at every commit, so an acknowledged batch
///   survives a power loss or a kernel crash, not only a crash of the process.
/// - `normal`: the WAL is fsynced only at checkpoints. A committed transaction is in the
///   WAL file, which the operating system holds, so a crash of the process (or a kill -9)
///   loses nothing; a power loss or kernel crash may lose the last transactions
///   acknowledged before it (never corrupting the database: they are simply not there).
///
/// Group commit (one transaction for every batch that arrived meanwhile) is what keeps
/// `full` affordable: one fsync covers every board that committed in that round.
public enum SyncMode: String, Sendable, Hashable, CaseIterable {
    case full
    case normal

    /// The pragma value; GRDB's WAL setup sets NORMAL, so the store sets this after it.
    var pragmaValue: String {
        switch self {
        case .full: "FULL"
        case .normal: "NORMAL"
        }
    }
}
