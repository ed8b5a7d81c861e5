import CorkboardStore
import Foundation
import GRDB

/// Turns errors met while the store runs into `StoreError.unavailable` with a sentence
/// that says what is wrong with the disk, not only SQLite's code: the hub passes the text
/// on to logs and to the clients whose operations were not made durable.
enum StorageFailure {
    static func reason(_ error: any Error, path: String) -> String {
        guard let error = error as? DatabaseError else { return "\(error) (\(path))" }
        let detail = error.message ?? "\(error.extendedResultCode)"
        switch error.resultCode {
        case .SQLITE_FULL:
            return "the disk holding \(path) is full (or the database reached its size limit): \(detail)"
        case .SQLITE_IOERR:
            return "I/O error on \(path): \(detail)"
        case .SQLITE_READONLY, .SQLITE_PERM, .SQLITE_AUTH:
            return "\(path) has become read-only: \(detail)"
        case .SQLITE_CORRUPT, .SQLITE_NOTADB:
            return "\(path) is damaged: \(detail)"
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            return "\(path) is locked by another connection: \(detail)"
        case .SQLITE_CANTOPEN:
            return "cannot open \(path) or its journal: \(detail)"
        case .SQLITE_NOMEM:
            return "out of memory while using \(path)"
        default:
            return "SQLite error on \(path): \(detail)"
        }
    }

    static func unavailable(_ error: any Error, path: String) -> StoreError {
        .unavailable(reason(error, path: path))
    }

    /// The typed error for a failure while opening, by what SQLite said went wrong.
    static func openError(_ error: any Error, path: String) -> SQLiteStoreError {
        if let error = error as? SQLiteStoreError { return error }
        guard let error = error as? DatabaseError else { return .storage(path: path, reason: "\(error)") }
        let detail = error.message ?? "\(error.extendedResultCode)"
        switch error.resultCode {
        case .SQLITE_NOTADB, .SQLITE_CORRUPT:
            return .corrupt(path: path, detail: detail)
        case .SQLITE_READONLY, .SQLITE_FULL, .SQLITE_PERM:
            return .readOnly(path: path, reason: detail)
        case .SQLITE_CANTOPEN:
            // SQLite says only "unable to open": ask the file system which it is.
            return FileAccess.explainCannotOpen(path: path, detail: detail)
        default:
            return .storage(path: path, reason: detail)
        }
    }
}

/// Questions asked of the file system directly, for errors SQLite reports too vaguely.
enum FileAccess {
    static func errnoText(_ code: Int32) -> String {
        String(cString: strerror(code))
    }

    /// Throws `.unreadable` when `path` exists and this process may not read it.
    static func checkReadable(_ path: String) throws(SQLiteStoreError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        if descriptor >= 0 {
            close(descriptor)
            return
        }
        let code = errno
        if code == ENOENT { return }
        throw .unreadable(path: path, reason: errnoText(code))
    }

    static func explainCannotOpen(path: String, detail: String) -> SQLiteStoreError {
        if access(path, F_OK) == 0 && access(path, R_OK) != 0 {
            return .unreadable(path: path, reason: errnoText(errno))
        }
        let directory = (path as NSString).deletingLastPathComponent
        if access(directory, W_OK) != 0 {
            return .readOnly(path: directory, reason: "\(errnoText(errno)) (\(detail))")
        }
        return .storage(path: path, reason: detail)
    }
}
