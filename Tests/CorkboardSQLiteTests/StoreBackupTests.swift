import CorkboardModel
import CorkboardStore
import Foundation
import GRDB
import TestSupport
import Testing

@testable import CorkboardSQLite

/// `StoreBackup`: a whole-store copy taken beside an open store, and its restore into an
/// empty data folder only.
@Suite(.threadsOfTheirOwn) struct StoreBackupTests {
    @Test func aBackupBesideAnOpenStoreRestoresEveryBoardWithItsLogAndAnswers() throws {
        let directory = try TemporaryDirectory()
        let store = try Fixtures.open(directory, retainedEvents: 3)
        try store.create(Fixtures.board("a"), epoch: "e-a")
        try store.create(Fixtures.board("b"), epoch: "e-b")
        try store.appendEvents("a", after: 0, count: 9, rejections: [Rejection(opId: "r1", code: .invalid, message: "no")])
        try store.appendEvents("b", after: 0, count: 2)
        let before = (a: try #require(try store.load("a")), b: try #require(try store.load("b")))

        // Taken while the store is open and holds the folder's lock.
        let file = directory.path + "/backup.sqlite"
        let contents = try StoreBackup.backUp(directory: directory.path + "/data", to: file)
        #expect(contents.boards.map(\.id) == ["a", "b"] && contents.boards.map(\.seq) == [9, 2])
        #expect(!FileManager.default.fileExists(atPath: file + ".partial"))
        #expect(!FileManager.default.fileExists(atPath: file + "-wal"), "one self-contained file")
        try store.appendEvents("b", after: 2, count: 1) // after the backup: not in it
        store.close()

        let restored = try TemporaryDirectory()
        let target = restored.path + "/new/data"
        #expect(try StoreBackup.restore(from: file, into: target, keepEpochs: true).boards == contents.boards)
        let reopened = try SQLiteStore(directory: target, syncMode: .normal, retainedEvents: 3)
        defer { reopened.close() }
        // The same boards at the same seqs and epochs (a fold may have run since `before`).
        for expected in [before.a, before.b] {
            let board = try #require(try reopened.load(expected.snapshot.id))
            #expect(try Fixtures.rebuild(board) == Fixtures.rebuild(expected))
            #expect(board.seq == expected.seq && board.epoch == expected.epoch)
        }
    }

    @Test func aRestoreGivesEveryBoardAFreshEpochUnlessToldToKeepThem() throws {
        let directory = try TemporaryDirectory()
        let store = try Fixtures.open(directory)
        try store.create(Fixtures.board("a"), epoch: "e-a")
        try store.appendEvents("a", after: 0, count: 3)
        let file = directory.path + "/backup.sqlite"
        _ = try StoreBackup.backUp(directory: directory.path + "/data", to: file)
        store.close()

        let restored = try TemporaryDirectory()
        _ = try StoreBackup.restore(from: file, into: restored.path, keepEpochs: false)
        let reopened = try SQLiteStore(directory: restored.path)
        defer { reopened.close() }
        let board = try #require(try reopened.load("a"))
        #expect(board.epoch != "e-a")
        #expect(board.seq == 3)
    }

    @Test func aRestoreRefusesAFolderInUseOrHoldingADatabaseAndFilesThatAreNotBackups() throws {
        let directory = try TemporaryDirectory()
        let store = try Fixtures.open(directory)
        let file = directory.path + "/backup.sqlite"
        _ = try StoreBackup.backUp(directory: directory.path + "/data", to: file)

        // The open store holds the folder.
        #expect(throws: SQLiteStoreError.inUse(directory: directory.path + "/data", pid: getpid())) {
            try StoreBackup.restore(from: file, into: directory.path + "/data", keepEpochs: false)
        }
        store.close()
        let database = directory.path + "/data/corkboard.sqlite"
        #expect(throws: SQLiteStoreError.notEmpty(directory: directory.path + "/data", file: database)) {
            try StoreBackup.restore(from: file, into: directory.path + "/data", keepEpochs: false)
        }

        let empty = try TemporaryDirectory()
        let garbage = try directory.write("garbage.sqlite", "not a database at all")
        #expect(throws: SQLiteStoreError.self) { try StoreBackup.restore(from: garbage, into: empty.path, keepEpochs: false) }
        let other = directory.path + "/other.sqlite"
        try DatabaseQueue(path: other).write { try $0.execute(sql: "CREATE TABLE t (x)") }
        #expect(throws: SQLiteStoreError.notCorkboard(path: other)) {
            try StoreBackup.restore(from: other, into: empty.path, keepEpochs: false)
        }
        // Written by a newer corkboard: a migration this one does not know.
        try DatabaseQueue(path: file).write {
            try $0.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v99: from the future')")
        }
        #expect(throws: SQLiteStoreError.newerSchema(path: file)) {
            try StoreBackup.restore(from: file, into: empty.path, keepEpochs: false)
        }
        #expect(!FileManager.default.fileExists(atPath: empty.path + "/corkboard.sqlite"), "nothing restored by a refusal")
        #expect(throws: SQLiteStoreError.missing(path: directory.path + "/none/corkboard.sqlite")) {
            try StoreBackup.backUp(directory: directory.path + "/none", to: directory.path + "/x.sqlite")
        }
    }

    @Test func anOlderBackupIsMigratedOnRestore() throws {
        let directory = try TemporaryDirectory()
        let store = try Fixtures.open(directory)
        try store.create(Fixtures.board("a"), epoch: "e-a")
        store.close()
        let file = directory.path + "/backup.sqlite"
        _ = try StoreBackup.backUp(directory: directory.path + "/data", to: file)
        // As a corkboard before token revocations (migration v5) and webhooks (v6) left it.
        try DatabaseQueue(path: file).write { db in
            for table in ["revocation", "webhook_endpoint", "webhook_cursor", "webhook_status", "webhook_notice"] {
                try db.execute(sql: "DROP TABLE \(table)")
            }
            try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier LIKE 'v5:%' OR identifier LIKE 'v6:%'")
        }
        let restored = try TemporaryDirectory()
        let contents = try StoreBackup.restore(from: file, into: restored.path, keepEpochs: true)
        #expect(contents.migrations == 4)
        let reopened = try SQLiteStore(directory: restored.path)
        defer { reopened.close() }
        #expect(try reopened.load("a")?.epoch == "e-a")
    }
}
