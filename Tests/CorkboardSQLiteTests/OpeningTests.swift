import CorkboardModel
import CorkboardStore
import Foundation
import TestSupport
import Testing

@testable import CorkboardSQLite

/// Opening refuses, with a typed error naming the path, what the store must not run on.
@Suite(.threadsOfTheirOwn) struct OpeningTests {
    @Test func createsTheDirectoryAndUsesWALWithTheChosenSyncMode() throws {
        let directory = try TemporaryDirectory()
        let full = try SQLiteStore(directory: directory.path + "/new/data")
        #expect(FileManager.default.fileExists(atPath: directory.path + "/new/data/corkboard.sqlite"))
        #expect(full.syncMode == .full)
        #expect(try full.pragma("journal_mode") == "wal")
        #expect(try full.pragma("synchronous") == "2")
        full.close()
        let normal = try SQLiteStore(directory: directory.path + "/new/data", syncMode: .normal)
        #expect(try normal.pragma("synchronous") == "1")
    }

    @Test func secondStoreOnTheSameDirectoryIsRefused() throws {
        let directory = try TemporaryDirectory()
        let first = try Fixtures.open(directory)
        do {
            _ = try Fixtures.open(directory)
            Issue.record("a second store must not open a directory in use")
        } catch let error as SQLiteStoreError {
            #expect(error == .inUse(directory: first.directory, pid: getpid()))
            #expect(error.description.contains("is in use by another corkboard process (pid \(getpid()))"))
        }
        // The pid is in the lock file for the next process's message.
        let pid = try String(contentsOfFile: first.directory + "/corkboard.lock", encoding: .utf8)
        #expect(pid == "\(getpid())\n")
        // Released on close: the directory can be opened again.
        first.close()
        _ = try Fixtures.open(directory)
    }

    /// A child being spawned holds a copy of every descriptor until its exec; the lock must
    /// not outlive `close()` through that copy (a reopen right after a close failed in CI).
    @Test func closeReleasesTheDirectoryEvenWhileACopyOfTheLockDescriptorIsOpen() throws {
        let directory = try TemporaryDirectory()
        let first = try Fixtures.open(directory)
        let lockPath = first.directory + "/" + DirectoryLock.fileName
        let original = try #require(Self.descriptor(openOn: lockPath), "the store holds the lock file open")
        // What the spawned child holds: the same open file description.
        let copy = dup(original)
        #expect(copy >= 0)
        defer { close(copy) }
        first.close()
        let second = try Fixtures.open(directory)
        second.close()
    }

    /// The descriptor of this process that has `path` open, from /proc/self/fd.
    private static func descriptor(openOn path: String) -> Int32? {
        let target = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return entries.lazy.compactMap { entry -> Int32? in
            guard let link = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + entry),
                URL(fileURLWithPath: link).resolvingSymlinksInPath().path == target
            else { return nil }
            return Int32(entry)
        }.first
    }

    @Test func garbageFileIsRefusedAsCorrupt() throws {
        let directory = try TemporaryDirectory()
        let garbage = Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
        let path = try directory.write("data/corkboard.sqlite", garbage)
        do {
            _ = try Fixtures.open(directory)
            Issue.record("garbage must not open")
        } catch let error as SQLiteStoreError {
            guard case .corrupt(let named, _) = error else {
                Issue.record("expected .corrupt, got \(error)")
                return
            }
            #expect(named == path)
            #expect(error.description.contains(path) && error.description.contains("not a usable corkboard database"))
        }
        // The garbage is left as it was for someone to look at.
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == garbage)
    }

    /// A real database whose pages were overwritten in the middle: quick_check finds it.
    @Test func damagedDatabaseIsRefusedAsCorrupt() throws {
        let directory = try TemporaryDirectory()
        do {
            let store = try Fixtures.open(directory)
            for id in 0..<20 { try store.create(Fixtures.board("board-\(id)")) }
            try store.appendEvents("board-1", after: 0, count: 300)
            store.close()
        }
        let path = directory.path + "/data/corkboard.sqlite"
        let handle = try #require(FileHandle(forUpdatingAtPath: path))
        let size = try handle.seekToEnd()
        #expect(size > 4096 * 3)
        // Keep page 1 (the header and schema) intact; scribble over the pages after it.
        try handle.seek(toOffset: 4096)
        handle.write(Data(repeating: 0xA5, count: Int(size) - 4096))
        try handle.close()
        #expect {
            _ = try Fixtures.open(directory)
        } throws: { error in
            guard case SQLiteStoreError.corrupt(let named, _) = error else { return false }
            return named == path
        }
    }

    @Test func dataPathThatIsAFileIsRefused() throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write("data", "not a directory")
        #expect(throws: SQLiteStoreError.cannotCreateDirectory(path: file, reason: "it exists and is not a directory")) {
            _ = try Fixtures.open(directory)
        }
    }

    /// chmod 0555 on the data directory. Root ignores permission bits (CAP_DAC_OVERRIDE),
    /// so as root this case cannot be set up with chmod and is skipped; the
    /// `databaseThatCannotGrowIsRefused` test covers the same write check at open.
    @Test(.enabled(if: geteuid() != 0, "root writes through chmod 0555"))
    func readOnlyDirectoryIsRefused() throws {
        let directory = try TemporaryDirectory()
        let data = directory.path + "/data"
        do {
            let store = try Fixtures.open(directory)
            try store.create(Fixtures.board())
            store.close()
        }
        chmod(data + "/corkboard.sqlite", 0o444)
        chmod(data, 0o555)
        defer { chmod(data, 0o755) }
        do {
            _ = try Fixtures.open(directory)
            Issue.record("a read-only directory must be refused")
        } catch let error as SQLiteStoreError {
            guard case .readOnly = error else {
                Issue.record("expected .readOnly, got \(error)")
                return
            }
            #expect(error.description.contains(data))
        }
    }

    /// The write at open is real: a database that cannot take one more page (as on a
    /// full disk) is refused before the server starts, not at the first operation.
    @Test func databaseThatCannotGrowIsRefused() throws {
        let directory = try TemporaryDirectory()
        #expect {
            _ = try SQLiteStore(directory: directory.path + "/data", syncMode: .normal, retainedEvents: 10, maxPageCount: 1)
        } throws: { error in
            guard case SQLiteStoreError.readOnly(let path, _) = error else { return false }
            return path.hasSuffix("/data/corkboard.sqlite")
        }
        // Nothing half-made is left behind: a normal open then works.
        let store = try Fixtures.open(directory)
        try store.create(Fixtures.board())
    }

    /// An unreadable file (chmod 000); skipped as root, for whom it is readable.
    @Test(.enabled(if: geteuid() != 0, "root reads through chmod 000"))
    func unreadableFileIsRefused() throws {
        let directory = try TemporaryDirectory()
        do {
            let store = try Fixtures.open(directory)
            store.close()
        }
        let path = directory.path + "/data/corkboard.sqlite"
        chmod(path, 0)
        defer { chmod(path, 0o644) }
        #expect {
            _ = try Fixtures.open(directory)
        } throws: { error in
            guard case SQLiteStoreError.unreadable(let named, _) = error else { return false }
            return named == path
        }
    }
}
