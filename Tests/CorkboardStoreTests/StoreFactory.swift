import CorkboardModel
import CorkboardPostgres
import CorkboardSQLite
import CorkboardStore
import TestSupport
import Testing

/// How the contract suite opens a fresh store of one kind. Adding a store to Corkboard is
/// adding one entry to `all`: every test of the suite then runs on it too (docs/storage.md).
struct StoreFactory: Sendable, CustomTestStringConvertible {
    let name: String
    /// A fresh store with no boards, keeping its logs by `retention`.
    let open: @Sendable (_ retention: LogRetention) throws -> OpenedStore

    var testDescription: String { name }

    static let all: [StoreFactory] = [.memory, .sqlite, .postgres]

    /// The stores several nodes share, which adopt `ClusterSignals` and lease drags across
    /// them. Memory and SQLite serve one node: its rooms' own lease tables are all there is.
    static let sharedByNodes: [StoreFactory] = [.postgres]

    static let memory = StoreFactory(name: "memory") { retention in
        OpenedStore(MemoryStore(retainedEvents: retention.retained, historyByteBudget: retention.byteBudget))
    }

    static let sqlite = StoreFactory(name: "SQLite") { retention in
        let folder = try TemporaryDirectory("corkboard-contract")
        let store = try SQLiteStore(
            directory: folder.path + "/data", syncMode: .normal, retainedEvents: retention.retained,
            historyByteBudget: retention.byteBudget)
        return OpenedStore(store, keeping: folder)
    }

    /// A fresh database on the throwaway server of TestSupport (started once per test run).
    static let postgres = StoreFactory(name: "PostgreSQL") { retention in
        var configuration = PostgresStore.Configuration(
            url: try PostgresCluster.shared().createDatabase(), retainedEvents: retention.retained, startupTimeout: 10)
        configuration.historyByteBudget = retention.byteBudget
        return OpenedStore(try PostgresStore.open(configuration))
    }
}

/// A store under test, and what must outlive it (its folder). Tests close it in a `defer`,
/// so one that fails half-way leaves no connection or lock behind.
final class OpenedStore {
    let store: any BoardStore
    private var kept: AnyObject?

    init(_ store: any BoardStore, keeping kept: AnyObject? = nil) {
        self.store = store
        self.kept = kept
    }

    /// Closes the store, then lets go of its folder.
    func close() {
        store.close()
        kept = nil
    }
}
