import CorkboardModel
import CorkboardStore
import Foundation
import GRDB
import TestSupport
import Testing

@testable import CorkboardSQLite

/// A database written before migration v4 (events without `at` and `by`) opens: its events read
/// back without the two fields, and the events appended after carry them.
@Suite(.threadsOfTheirOwn) struct SQLiteCommitStampMigrationTests {
    @Test func aDatabaseOfV3OpensAndItsOldEventsHaveNoStamp() throws {
        let directory = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory.path + "/data", withIntermediateDirectories: true)
        let old = try DatabaseQueue(path: directory.path + "/data/" + DatabaseOpening.fileName)
        try Schema.migrator.migrate(old, upTo: "v3: opIds of folded events")
        try old.write { db in
            try BoardTables.insertBoard(db, Fixtures.board(), seq: 0, epoch: "e1")
            // The rows as v3 wrote them: no committedAt, no author.
            for event in Fixtures.events(1...2) {
                let op = String(decoding: try JSONEncoder().encode(event.op), as: UTF8.self)
                try db.execute(
                    sql: "INSERT INTO event (board, seq, opId, client, op, adjusted) VALUES (?, ?, ?, ?, ?, ?)",
                    arguments: ["b", event.seq, event.opId, event.client, op, event.adjusted])
            }
            try db.execute(sql: "UPDATE board SET seq = 2 WHERE id = 'b'")
        }
        try old.close()

        let store = try Fixtures.open(directory)
        defer { store.close() }
        let loaded = try #require(try store.load("b"))
        #expect(loaded.events == Fixtures.events(1...2))
        #expect(loaded.events.allSatisfy { $0.at == nil && $0.by == nil })
        var stamped = Fixtures.event(3)
        stamped.at = 1_795_575_010_123
        stamped.by = "user-4821"
        try store.appendResult(CommitBatch(board: "b", expectedSeq: 2, events: [stamped])).get()
        #expect(try store.load("b")?.events == Fixtures.events(1...2) + [stamped])
    }
}
