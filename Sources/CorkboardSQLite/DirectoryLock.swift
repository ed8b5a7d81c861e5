import Foundation

/// Exclusive ownership of a data directory for as long as a store has it open: an
/// `flock(LOCK_EX | LOCK_NB)` on `corkboard.lock`, holding this process's pid.
///
/// SQLite's own locking would let a second server open the same file and interleave its
/// appends with ours (each checks `expectedSeq`, but two sequencers on one board would
/// fight forever); an import would replace a board under a running server's feet. The
/// lock makes either fail at once with a message naming the holder. `flock` locks belong
/// to the open file description, so the kernel releases it when the process dies, even
/// on kill -9: a stale lock file never blocks a restart.
final class DirectoryLock: Sendable {
    static let fileName = "corkboard.lock"

    let path: String
    /// The descriptor holding the lock; closing it releases the lock. Written once in
    /// `init` and read in `deinit` only.
    private let descriptor: Int32

    /// Takes the lock or throws `.inUse` (with the holder's pid when it wrote one) at once.
    init(directory: String) throws(SQLiteStoreError) {
        path = directory + "/" + Self.fileName
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            let code = errno
            if code == EACCES || code == EROFS || code == EPERM {
                throw .readOnly(path: directory, reason: "cannot create \(path): \(FileAccess.errnoText(code))")
            }
            throw .storage(path: path, reason: "cannot open the lock file: \(FileAccess.errnoText(code))")
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let code = errno
            let holder = Self.readPID(descriptor)
            close(descriptor)
            if code == EWOULDBLOCK { throw .inUse(directory: directory, pid: holder) }
            throw .storage(path: path, reason: "cannot lock: \(FileAccess.errnoText(code))")
        }
        // Ours now: record who holds it, for the next process's error message.
        let pid = Array("\(getpid())\n".utf8)
        _ = ftruncate(descriptor, 0)
        _ = pid.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        self.descriptor = descriptor
    }

    deinit {
        // Unlock before closing: closing releases the lock only when no other descriptor
        // shares the open file description, and a child that `posix_spawn` is starting
        // holds a copy of every descriptor until its exec closes the close-on-exec ones —
        // long enough, under load, for a reopen right after `close()` to find the
        // directory still locked. `LOCK_UN` releases it through any copy. The file stays
        // (removing it would race with a process about to lock the removed inode).
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }

    private static func readPID(_ descriptor: Int32) -> Int32? {
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        let text = String(decoding: buffer.prefix(count), as: UTF8.self)
        return Int32(text.trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
