/// Why a SQLite store could not be opened, or an export or import could not be done.
///
/// Every case names the path involved and reads as one line a person can act on: the
/// server prints `description` and refuses to start rather than run on a store it cannot
/// trust or cannot write. (Errors while the store runs are `StoreError.unavailable`.)
public enum SQLiteStoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Another process holds the directory's lock (`corkboard.lock`).
    case inUse(directory: String, pid: Int32?)
    /// The data directory is missing and cannot be created, or is not a directory.
    case cannotCreateDirectory(path: String, reason: String)
    /// The file is not a SQLite database, or `PRAGMA quick_check` found it damaged.
    case corrupt(path: String, detail: String)
    /// The file exists but cannot be read (permissions).
    case unreadable(path: String, reason: String)
    /// The directory or the database cannot be written: read-only file, directory or
    /// file system, or a full disk at open.
    case readOnly(path: String, reason: String)
    /// The database was written by a newer corkboard (it has migrations this one lacks).
    case newerSchema(path: String)
    /// There is no database to open read-only (export before the first start).
    case missing(path: String)
    /// Any other SQLite failure, with SQLite's own words.
    case storage(path: String, reason: String)
    /// An archive that cannot be imported (unknown format, seq out of range, invalid board,
    /// past the server's limits): the board's id and every problem found.
    case invalidArchive(board: String, problems: [String])
    /// The store was opened read-only (for export) and was asked to write.
    case openedReadOnly(path: String)
    /// The store was closed.
    case closed(path: String)
    /// A SQLite file that is not a Corkboard database (`corkboard restore` of another file).
    case notCorkboard(path: String)
    /// `corkboard restore` into a data folder that already holds a database (`file`).
    case notEmpty(directory: String, file: String)

    public var description: String {
        switch self {
        case .inUse(let directory, let pid):
            let owner = pid.map { " (pid \($0))" } ?? ""
            return "the data directory \(directory) is in use by another corkboard process\(owner); stop it first or use another --data directory"
        case .cannotCreateDirectory(let path, let reason):
            return "cannot create the data directory \(path): \(reason)"
        case .corrupt(let path, let detail):
            return "\(path) is not a usable corkboard database (not a SQLite database, or damaged): \(detail)"
        case .unreadable(let path, let reason):
            return "cannot read \(path): \(reason)"
        case .readOnly(let path, let reason):
            return "cannot write to \(path) (read-only file, directory or file system, or disk full): \(reason)"
        case .newerSchema(let path):
            return "\(path) was written by a newer corkboard; this version cannot use it"
        case .missing(let path):
            return "there is no corkboard database at \(path)"
        case .storage(let path, let reason):
            return "SQLite error on \(path): \(reason)"
        case .invalidArchive(let board, let problems):
            // One line however many problems: the first few, and how many more.
            let shown = problems.prefix(3).joined(separator: "; ")
            let more = problems.count > 3 ? " (and \(problems.count - 3) more)" : ""
            return "board \(Self.quoted(board)) cannot be imported: \(shown)\(more)"
        case .openedReadOnly(let path):
            return "\(path) was opened read-only (for export) and cannot be written"
        case .closed(let path):
            return "the store on \(path) is closed"
        case .notCorkboard(let path):
            return "\(path) is a SQLite database but not a corkboard one (it has no corkboard schema)"
        case .notEmpty(let directory, let file):
            return "the data directory \(directory) already holds a database (\(file)); restore only into an empty or new --data directory"
        }
    }

    /// A board id as it reads in one line: quoted and escaped, cut after 64 characters
    /// (an id that is too long is among the problems).
    private static func quoted(_ id: String) -> String {
        id.count > 64 ? String(reflecting: String(id.prefix(64))) + "…" : String(reflecting: id)
    }
}
