import GRDB

/// The database's tables, created and evolved by `DatabaseMigrator` (each migration runs
/// once, in a transaction, and is recorded in `grdb_migrations`). See docs/storage.md for
/// why the board is one JSON snapshot plus a log rather than rows per item.
enum Schema {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: boards, events, rejections") { db in
            // One row per board. `snapshot` is the board (JSON of `Board`) at `snapshotSeq`;
            // the events after it are in `event`. A move rewrites no item rows: it is one
            // event row, and the snapshot moves forward only when the log is folded.
            // `title` and `locked` repeat the snapshot's so a listing reads no blobs
            // (kept current by appends that carry a lock or a board rename).
            try db.execute(
                sql: """
                    CREATE TABLE board (
                        id TEXT NOT NULL PRIMARY KEY,
                        title TEXT NOT NULL,
                        locked INTEGER NOT NULL DEFAULT 0,
                        seq INTEGER NOT NULL CHECK (seq >= 0),
                        epoch TEXT NOT NULL,
                        snapshot BLOB NOT NULL,
                        snapshotSeq INTEGER NOT NULL CHECK (snapshotSeq >= 0 AND snapshotSeq <= seq),
                        rejectionCount INTEGER NOT NULL DEFAULT 0
                    )
                    """)
            // The kept log: exactly the events snapshotSeq+1 … seq of each board. Clustered
            // by (board, seq) (WITHOUT ROWID), so a board's events are one range on disk.
            // No UNIQUE(board, opId): opId replays are the engine's job within its outcome
            // window; see docs/storage.md.
            try db.execute(
                sql: """
                    CREATE TABLE event (
                        board TEXT NOT NULL,
                        seq INTEGER NOT NULL,
                        opId TEXT NOT NULL,
                        client TEXT NOT NULL,
                        op TEXT NOT NULL,
                        adjusted INTEGER NOT NULL,
                        PRIMARY KEY (board, seq)
                    ) WITHOUT ROWID
                    """)
            // Permanent rejections remembered for opId replays, in the order decided (id).
            // `decidedSeq` is the board's seq when the batch carrying it was committed, so
            // pruning can drop those older than the kept window.
            try db.execute(
                sql: """
                    CREATE TABLE rejection (
                        id INTEGER PRIMARY KEY,
                        board TEXT NOT NULL,
                        opId TEXT NOT NULL,
                        code TEXT NOT NULL,
                        message TEXT NOT NULL,
                        decidedSeq INTEGER NOT NULL,
                        UNIQUE (board, opId)
                    )
                    """)
            try db.execute(sql: "CREATE INDEX rejection_by_board_seq ON rejection (board, decidedSeq)")
            // Facts about the store itself. `opened` is rewritten at every read-write open:
            // that write is the check that the database can be written at all.
            try db.execute(
                sql: """
                    CREATE TABLE store_meta (
                        key TEXT NOT NULL PRIMARY KEY,
                        value TEXT NOT NULL
                    )
                    """)
        }
        migrator.registerMigration("v2: remembered noops") { db in
            // The `rejection` table holds every answer an opId replay must repeat after a
            // restart: permanent rejections, and noops (code `noop`, with the seq the noop
            // answered in `noopSeq`).
            try db.execute(sql: "ALTER TABLE rejection ADD COLUMN noopSeq INTEGER")
        }
        migrator.registerMigration("v3: opIds of folded events") { db in
            // The opId and seq of each event folded into the snapshot, for the board's last
            // `retainedEvents` seqs: a resend of such an opId after a restart is answered, not
            // applied again, also when the log was folded by its bytes (docs/storage.md).
            try db.execute(
                sql: """
                    CREATE TABLE folded_op (
                        board TEXT NOT NULL,
                        seq INTEGER NOT NULL,
                        opId TEXT NOT NULL,
                        PRIMARY KEY (board, seq)
                    ) WITHOUT ROWID
                    """)
        }
        migrator.registerMigration("v4: commit time and author of events") { db in
            // An event's `at` (milliseconds since 1970 UTC) and `by`. NULL in the rows written
            // before: such events go out without the two fields (docs/protocol.md#outcomes).
            try db.execute(sql: "ALTER TABLE event ADD COLUMN committedAt INTEGER")
            try db.execute(sql: "ALTER TABLE event ADD COLUMN author TEXT")
        }
        migrator.registerMigration("v5: token revocations") { db in
            // Signed tokens refused before their expiry (docs/security.md#revoking-tokens): of a
            // user (`kind` sub: those issued before `issuedBefore`, in seconds since 1970; NULL:
            // all of them) or one token (`kind` jti). `revokedAt` in milliseconds since 1970.
            try db.execute(
                sql: """
                    CREATE TABLE revocation (
                        kind TEXT NOT NULL,
                        value TEXT NOT NULL,
                        issuedBefore INTEGER,
                        revokedAt INTEGER NOT NULL,
                        PRIMARY KEY (kind, value)
                    ) WITHOUT ROWID
                    """)
        }
        migrator.registerMigration("v6: webhooks") { db in
            // Webhooks (docs/integrations.md#webhooks): the endpoints made through the API
            // (`boards` a JSON array of ids, NULL for every board; `createdAt` in milliseconds),
            // each endpoint's cursors (`stream` "notices" or "board:<id>", `position` the last
            // notice id or seq its receiver acknowledged), the account of its last attempt, and
            // the outbox of boards created and deleted (`at` in milliseconds), written by
            // createBoard and deleteBoard in their own transaction.
            try db.execute(
                sql: """
                    CREATE TABLE webhook_endpoint (
                        id TEXT NOT NULL PRIMARY KEY,
                        url TEXT NOT NULL,
                        secret TEXT NOT NULL,
                        boards TEXT,
                        createdAt INTEGER NOT NULL
                    ) WITHOUT ROWID
                    """)
            try db.execute(
                sql: """
                    CREATE TABLE webhook_cursor (
                        endpoint TEXT NOT NULL,
                        stream TEXT NOT NULL,
                        position INTEGER NOT NULL,
                        PRIMARY KEY (endpoint, stream)
                    ) WITHOUT ROWID
                    """)
            try db.execute(sql: "CREATE TABLE webhook_status (endpoint TEXT NOT NULL PRIMARY KEY, status TEXT NOT NULL) WITHOUT ROWID")
            try db.execute(
                sql: """
                    CREATE TABLE webhook_notice (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        kind TEXT NOT NULL,
                        board TEXT NOT NULL,
                        at INTEGER NOT NULL
                    )
                    """)
        }
        return migrator
    }
}
