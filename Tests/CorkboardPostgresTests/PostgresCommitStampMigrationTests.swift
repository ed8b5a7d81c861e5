import CorkboardModel
import CorkboardStore
import Foundation
import TestSupport
import Testing

@testable import CorkboardPostgres

/// A database as migration 5 left it (events without `at` and `by`) is brought up to date at
/// open by migration 6: its events read back without the two fields, those appended after
/// carry them, and a conflict's catch-up returns them.
@Suite(.threadsOfTheirOwn) struct PostgresCommitStampMigrationTests {
    @Test func aDatabaseBeforeMigration6OpensAndItsOldEventsHaveNoStamp() throws {
        let url = try TestDatabase.fresh()
        let first = try TestDatabase.open(url)
        try first.create(TestDatabase.board())
        // Back to the tables of version 5, with two events written as it wrote them.
        let events = [TestDatabase.event(1), TestDatabase.event(2)]
        var statements = [
            PostgresStatement("ALTER TABLE event DROP COLUMN committed_at, DROP COLUMN author"),
            PostgresStatement("DELETE FROM corkboard_migration WHERE version >= 6"),
            PostgresStatement("UPDATE board SET seq = 2 WHERE id = 'b'"),
        ]
        for event in events {
            statements.append(
                PostgresStatement(
                    "INSERT INTO event (board, seq, op_id, client, op, adjusted) VALUES ($1, $2, $3, $4, $5, false)",
                    ["b", String(event.seq), event.opId, event.client, String(decoding: try JSONEncoder().encode(event.op), as: UTF8.self)]))
        }
        try wait { first.run(statements, $0) }.get()
        first.close()

        let store = try TestDatabase.open(url)
        let other = try TestDatabase.open(url)
        defer {
            store.close()
            other.close()
        }
        let versions = try wait { store.run([PostgresStatement("SELECT max(version) AS version FROM corkboard_migration")], $0) }.get()
        #expect(versions[0].text(0, "version") == String(PostgresSchema.migrations.count))
        let loaded = try #require(try store.load("b"))
        #expect(loaded.events == events)
        #expect(loaded.events.allSatisfy { $0.at == nil && $0.by == nil })

        var stamped = TestDatabase.event(3)
        stamped.at = 1_795_575_010_123
        stamped.by = "user-4821"
        try store.appendWaiting(CommitBatch(board: "b", expectedSeq: 2, events: [stamped])).get()
        #expect(try store.load("b")?.events == events + [stamped])
        // Another node resolved against seq 2: it loses and is handed the stamped event that won.
        let losing = CommitBatch(board: "b", expectedSeq: 2, events: [TestDatabase.event(3, client: "c2")])
        #expect(other.appendWaiting(losing).failure == .conflict(currentSeq: 3))
        #expect(try other.eventsWaiting("b", after: 2).get() == [stamped])
    }
}
