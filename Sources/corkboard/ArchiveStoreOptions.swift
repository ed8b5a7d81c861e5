import ArgumentParser
import CorkboardPostgres
import CorkboardSQLite
import CorkboardServer
import CorkboardStore
import Foundation

/// The store `corkboard export` and `corkboard import` work on, named as `corkboard serve`
/// names it: `--store sqlite` (the data folder) or `--store postgres --database-url …`, with
/// the same environment variables. Both go through the store contract (`BoardStore`).
struct ArchiveStoreOptions: ParsableArguments {
    @OptionGroup var folder: DataFolderOption

    @Option(help: "The store: sqlite (corkboard.sqlite in --data) or postgres (needs --database-url) (env: CORKBOARD_STORE; default sqlite).")
    var store: String?

    @Option(help: "The PostgreSQL database of --store postgres: a postgres:// URL or libpq connection string (env: CORKBOARD_DATABASE_URL).")
    var databaseUrl: String?

    private var environment: [String: String] { ProcessInfo.processInfo.environment }

    var kind: StoreKind {
        get throws {
            let name = store ?? environment["CORKBOARD_STORE"] ?? StoreKind.sqlite.rawValue
            guard let kind = StoreKind(rawValue: name), kind != .memory else {
                throw ValidationError("--store must be sqlite or postgres (not \(String(reflecting: name)))")
            }
            return kind
        }
    }

    /// The store to read from: SQLite read-only beside a running server (no lock), or
    /// PostgreSQL (beside its running nodes).
    func openForReading() throws -> any BoardStore {
        switch try kind {
        case .postgres: return try openPostgres()
        default: return try explained { () throws(SQLiteStoreError) in try SQLiteStore.openReadOnly(directory: folder.path) }
        }
    }

    /// The store to import into: SQLite with the folder's lock (the server stopped), or
    /// PostgreSQL (its nodes may run: a replaced board's rooms end on every node).
    func openForWriting() throws -> any BoardStore {
        switch try kind {
        case .postgres: return try openPostgres()
        default: return try explained { () throws(SQLiteStoreError) in try SQLiteStore(directory: folder.path) }
        }
    }

    /// Where the boards are, for messages: the database file, or the PostgreSQL database.
    var place: String {
        (try? kind) == .postgres ? "the PostgreSQL database" : folder.path + "/corkboard.sqlite"
    }

    private func openPostgres() throws -> any BoardStore {
        guard let url = databaseUrl ?? environment["CORKBOARD_DATABASE_URL"] else {
            throw ValidationError("--store postgres needs --database-url (or CORKBOARD_DATABASE_URL)")
        }
        do {
            return try PostgresStore.open(PostgresStore.Configuration(url: url))
        } catch {
            throw CommandFailure("cannot open the PostgreSQL store: \(error)")
        }
    }

    private func explained<T>(_ body: () throws(SQLiteStoreError) -> T) throws -> T {
        do { return try body() } catch { throw CommandFailure(error.description) }
    }
}
