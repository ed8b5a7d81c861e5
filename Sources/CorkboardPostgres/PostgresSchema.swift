/// The database's tables and functions, created and evolved by numbered migrations that
/// every node runs at start. The logical schema is SQLite's (docs/storage.md): one row per
/// board with a JSON snapshot, the log of events after it, and remembered answers.
///
/// All migrations run in one transaction under an advisory lock, each guarded by its row in
/// `corkboard_migration`, so nodes starting together apply each exactly once.
enum PostgresSchema {
    struct Migration {
        var version: Int
        var name: String
        var sql: String
    }

    /// Any fixed number: the advisory lock that serializes migrations across nodes.
    static let migrationLock = 7_263_410_551

    static let migrations: [Migration] = [
        Migration(
            version: 1, name: "boards, events, rejections, append and fold",
            sql: """
                CREATE TABLE board (
                    id text PRIMARY KEY,
                    title text NOT NULL,
                    locked boolean NOT NULL DEFAULT false,
                    seq bigint NOT NULL CHECK (seq >= 0),
                    epoch text NOT NULL,
                    snapshot text NOT NULL,
                    snapshot_seq bigint NOT NULL CHECK (snapshot_seq >= 0 AND snapshot_seq <= seq)
                );
                -- The kept log: exactly the events snapshot_seq+1 … seq of each board. The primary
                -- key is what makes two nodes unable to commit the same seq of a board.
                CREATE TABLE event (
                    board text NOT NULL REFERENCES board (id) ON DELETE CASCADE,
                    seq bigint NOT NULL,
                    op_id text NOT NULL,
                    client text NOT NULL,
                    op text NOT NULL,
                    adjusted boolean NOT NULL,
                    PRIMARY KEY (board, seq)
                );
                -- Permanent rejections and noops (code 'noop', with noop_seq) an opId replay repeats.
                CREATE TABLE rejection (
                    id bigserial PRIMARY KEY,
                    board text NOT NULL REFERENCES board (id) ON DELETE CASCADE,
                    op_id text NOT NULL,
                    code text NOT NULL,
                    message text NOT NULL,
                    decided_seq bigint NOT NULL,
                    noop_seq bigint,
                    UNIQUE (board, op_id)
                );
                CREATE INDEX rejection_by_board_seq ON rejection (board, decided_seq);
                CREATE TABLE store_meta (
                    key text PRIMARY KEY,
                    value text NOT NULL
                );

                -- One batch of one board, in one transaction: lock the board's row, check that the
                -- batch extends the seq it was resolved against, append its events, remember its
                -- answers, bump the seq, and wake the other nodes (NOTIFY is sent at commit).
                -- No row back: no such board. appended = false: another node got there first.
                CREATE FUNCTION corkboard_append(
                    p_board text, p_expected bigint, p_events jsonb, p_answers jsonb, p_locked boolean, p_keep_answers integer
                ) RETURNS TABLE (appended boolean, current_seq bigint, current_snapshot_seq bigint)
                LANGUAGE plpgsql AS $body$
                DECLARE
                    v_seq bigint;
                    v_snapshot_seq bigint;
                    v_count integer := jsonb_array_length(p_events);
                BEGIN
                    SELECT b.seq, b.snapshot_seq INTO v_seq, v_snapshot_seq FROM board b WHERE b.id = p_board FOR UPDATE;
                    IF NOT FOUND THEN
                        RETURN;
                    END IF;
                    IF v_seq <> p_expected THEN
                        RETURN QUERY SELECT false, v_seq, v_snapshot_seq;
                        RETURN;
                    END IF;
                    INSERT INTO event (board, seq, op_id, client, op, adjusted)
                        SELECT p_board, (e->>'seq')::bigint, e->>'opId', e->>'client', e->>'op', (e->>'adjusted')::boolean
                        FROM jsonb_array_elements(p_events) AS e;
                    IF jsonb_array_length(p_answers) > 0 THEN
                        DELETE FROM rejection r USING jsonb_array_elements(p_answers) AS a
                            WHERE r.board = p_board AND r.op_id = a->>'opId';
                        INSERT INTO rejection (board, op_id, code, message, decided_seq, noop_seq)
                            SELECT DISTINCT ON (a->>'opId') p_board, a->>'opId', a->>'code', a->>'message',
                                   p_expected + v_count, (a->>'noopSeq')::bigint
                            FROM jsonb_array_elements(p_answers) WITH ORDINALITY AS x(a, n)
                            ORDER BY a->>'opId', n DESC;
                        -- Answers pile up while the seq stands still (a client sending invalid
                        -- operations): beyond the bound the oldest are forgotten.
                        DELETE FROM rejection WHERE id IN (
                            SELECT id FROM rejection WHERE board = p_board ORDER BY id DESC OFFSET p_keep_answers);
                    END IF;
                    UPDATE board SET seq = p_expected + v_count, locked = coalesce(p_locked, locked) WHERE id = p_board;
                    IF v_count > 0 THEN
                        PERFORM pg_notify('corkboard_commits', p_board || ' ' || (p_expected + v_count));
                    END IF;
                    RETURN QUERY SELECT true, p_expected + v_count, v_snapshot_seq;
                END
                $body$;

                -- Folds the log through p_through into a new snapshot computed by a node, if nobody
                -- folded it meanwhile (snapshot_seq still p_from); the row lock orders it with appends.
                CREATE FUNCTION corkboard_fold(p_board text, p_from bigint, p_through bigint, p_snapshot text)
                RETURNS boolean LANGUAGE plpgsql AS $body$
                BEGIN
                    UPDATE board SET snapshot = p_snapshot, snapshot_seq = p_through
                        WHERE id = p_board AND snapshot_seq = p_from AND seq >= p_through;
                    IF NOT FOUND THEN
                        RETURN false;
                    END IF;
                    DELETE FROM event WHERE board = p_board AND seq <= p_through;
                    DELETE FROM rejection WHERE board = p_board AND decided_seq <= p_through;
                    RETURN true;
                END
                $body$;
                """),
        Migration(
            version: 2, name: "item leases across nodes",
            sql: """
                -- Items held by live drags, whichever node the dragging client is on. Never a
                -- drag's state (that goes by NOTIFY only): just who holds which item, until when.
                -- A node renews its leases while it lives; a dead node's expire.
                CREATE TABLE lease (
                    board text NOT NULL,
                    item text NOT NULL,
                    holder text NOT NULL,
                    node text NOT NULL,
                    expires_at timestamptz NOT NULL,
                    PRIMARY KEY (board, item)
                );
                CREATE INDEX lease_by_node ON lease (node);
                CREATE INDEX lease_by_holder ON lease (board, holder);

                -- Gives all of p_items to p_holder (replacing its previous lease on the board), or
                -- none: raises SQLSTATE CB409 with the holder of one of them as its message.
                CREATE FUNCTION corkboard_lease(p_board text, p_holder text, p_node text, p_items text[], p_ttl_ms integer)
                RETURNS void LANGUAGE plpgsql AS $body$
                DECLARE
                    v_holder text;
                BEGIN
                    DELETE FROM lease WHERE board = p_board AND item = ANY (p_items) AND expires_at < now();
                    DELETE FROM lease WHERE board = p_board AND holder = p_holder;
                    INSERT INTO lease (board, item, holder, node, expires_at)
                        SELECT DISTINCT p_board, i, p_holder, p_node, now() + p_ttl_ms * interval '1 millisecond'
                        FROM unnest(p_items) AS i
                        ON CONFLICT (board, item) DO NOTHING;
                    -- A row another holder inserted first (now, or in a transaction that committed
                    -- while this one waited on its key) means the drag is refused.
                    SELECT holder INTO v_holder FROM lease
                        WHERE board = p_board AND item = ANY (p_items) AND holder <> p_holder LIMIT 1;
                    IF FOUND THEN
                        RAISE EXCEPTION USING ERRCODE = 'CB409', MESSAGE = v_holder;
                    END IF;
                END
                $body$;
                """),
        Migration(
            version: 3, name: "a conflict returns the events that won",
            sql: """
                -- As corkboard_append, and on a conflict also the events after p_expected (at
                -- most 512, as JSON): the losing node catches up without another round trip.
                CREATE FUNCTION corkboard_append_or_catch_up(
                    p_board text, p_expected bigint, p_events jsonb, p_answers jsonb, p_locked boolean, p_keep_answers integer
                ) RETURNS TABLE (appended boolean, current_seq bigint, current_snapshot_seq bigint, missing text)
                LANGUAGE plpgsql AS $body$
                DECLARE
                    v_result record;
                BEGIN
                    SELECT * INTO v_result FROM corkboard_append(p_board, p_expected, p_events, p_answers, p_locked, p_keep_answers);
                    IF NOT FOUND THEN
                        RETURN;
                    END IF;
                    IF v_result.appended OR p_expected < v_result.current_snapshot_seq THEN
                        RETURN QUERY SELECT v_result.appended, v_result.current_seq, v_result.current_snapshot_seq, NULL::text;
                        RETURN;
                    END IF;
                    RETURN QUERY SELECT false, v_result.current_seq, v_result.current_snapshot_seq,
                        (SELECT coalesce(json_agg(json_build_object(
                            'seq', e.seq, 'opId', e.op_id, 'client', e.client, 'op', e.op, 'adjusted', e.adjusted) ORDER BY e.seq), '[]')::text
                         FROM (SELECT * FROM event WHERE board = p_board AND seq > p_expected ORDER BY seq LIMIT 512) AS e);
                END
                $body$;
                """),
        Migration(
            version: 4, name: "opIds of folded events",
            sql: """
                -- The opId and seq of each event folded into the snapshot, for the board's last
                -- p_retained seqs: a resend of such an opId is answered, not applied again, also
                -- after a restart and when the log was folded by its bytes (docs/storage.md).
                CREATE TABLE folded_op (
                    board text NOT NULL REFERENCES board (id) ON DELETE CASCADE,
                    seq bigint NOT NULL,
                    op_id text NOT NULL,
                    PRIMARY KEY (board, seq)
                );

                -- corkboard_fold, keeping the folded events' opIds (those after seq - p_retained).
                CREATE FUNCTION corkboard_fold_keeping_op_ids(
                    p_board text, p_from bigint, p_through bigint, p_snapshot text, p_retained bigint
                ) RETURNS boolean LANGUAGE plpgsql AS $body$
                DECLARE
                    v_oldest bigint;
                BEGIN
                    UPDATE board SET snapshot = p_snapshot, snapshot_seq = p_through
                        WHERE id = p_board AND snapshot_seq = p_from AND seq >= p_through
                        RETURNING seq - p_retained INTO v_oldest;
                    IF NOT FOUND THEN
                        RETURN false;
                    END IF;
                    INSERT INTO folded_op (board, seq, op_id)
                        SELECT board, seq, op_id FROM event WHERE board = p_board AND seq <= p_through AND seq > v_oldest
                        ON CONFLICT (board, seq) DO UPDATE SET op_id = excluded.op_id;
                    DELETE FROM folded_op WHERE board = p_board AND seq <= v_oldest;
                    DELETE FROM event WHERE board = p_board AND seq <= p_through;
                    DELETE FROM rejection WHERE board = p_board AND decided_seq <= p_through;
                    RETURN true;
                END
                $body$;
                """),
        Migration(
            version: 5, name: "answers of one batch in the order decided",
            sql: """
                -- As in version 1, but the answers of one batch are inserted in the order they were
                -- decided (the ids, which loads order by, followed their opIds' order before), the
                -- last answer for an opId in the batch winning: the store contract's order.
                CREATE OR REPLACE FUNCTION corkboard_append(
                    p_board text, p_expected bigint, p_events jsonb, p_answers jsonb, p_locked boolean, p_keep_answers integer
                ) RETURNS TABLE (appended boolean, current_seq bigint, current_snapshot_seq bigint)
                LANGUAGE plpgsql AS $body$
                DECLARE
                    v_seq bigint;
                    v_snapshot_seq bigint;
                    v_count integer := jsonb_array_length(p_events);
                BEGIN
                    SELECT b.seq, b.snapshot_seq INTO v_seq, v_snapshot_seq FROM board b WHERE b.id = p_board FOR UPDATE;
                    IF NOT FOUND THEN
                        RETURN;
                    END IF;
                    IF v_seq <> p_expected THEN
                        RETURN QUERY SELECT false, v_seq, v_snapshot_seq;
                        RETURN;
                    END IF;
                    INSERT INTO event (board, seq, op_id, client, op, adjusted)
                        SELECT p_board, (e->>'seq')::bigint, e->>'opId', e->>'client', e->>'op', (e->>'adjusted')::boolean
                        FROM jsonb_array_elements(p_events) AS e;
                    IF jsonb_array_length(p_answers) > 0 THEN
                        DELETE FROM rejection r USING jsonb_array_elements(p_answers) AS a
                            WHERE r.board = p_board AND r.op_id = a->>'opId';
                        INSERT INTO rejection (board, op_id, code, message, decided_seq, noop_seq)
                            SELECT p_board, d.op_id, d.code, d.message, p_expected + v_count, d.noop_seq
                            FROM (
                                SELECT DISTINCT ON (a->>'opId') a->>'opId' AS op_id, a->>'code' AS code,
                                       a->>'message' AS message, (a->>'noopSeq')::bigint AS noop_seq, n
                                FROM jsonb_array_elements(p_answers) WITH ORDINALITY AS x(a, n)
                                ORDER BY a->>'opId', n DESC
                            ) AS d
                            ORDER BY d.n;
                        -- Answers pile up while the seq stands still (a client sending invalid
                        -- operations): beyond the bound the oldest are forgotten.
                        DELETE FROM rejection WHERE id IN (
                            SELECT id FROM rejection WHERE board = p_board ORDER BY id DESC OFFSET p_keep_answers);
                    END IF;
                    UPDATE board SET seq = p_expected + v_count, locked = coalesce(p_locked, locked) WHERE id = p_board;
                    IF v_count > 0 THEN
                        PERFORM pg_notify('corkboard_commits', p_board || ' ' || (p_expected + v_count));
                    END IF;
                    RETURN QUERY SELECT true, p_expected + v_count, v_snapshot_seq;
                END
                $body$;
                """),
        Migration(
            version: 6, name: "commit time and author of events",
            sql: """
                -- An event's `at` (milliseconds since 1970 UTC) and `by`. NULL in the rows written
                -- before: such events go out without the two fields (docs/protocol.md#outcomes).
                ALTER TABLE event ADD COLUMN committed_at bigint, ADD COLUMN author text;

                -- As in version 5, storing the two.
                CREATE OR REPLACE FUNCTION corkboard_append(
                    p_board text, p_expected bigint, p_events jsonb, p_answers jsonb, p_locked boolean, p_keep_answers integer
                ) RETURNS TABLE (appended boolean, current_seq bigint, current_snapshot_seq bigint)
                LANGUAGE plpgsql AS $body$
                DECLARE
                    v_seq bigint;
                    v_snapshot_seq bigint;
                    v_count integer := jsonb_array_length(p_events);
                BEGIN
                    SELECT b.seq, b.snapshot_seq INTO v_seq, v_snapshot_seq FROM board b WHERE b.id = p_board FOR UPDATE;
                    IF NOT FOUND THEN
                        RETURN;
                    END IF;
                    IF v_seq <> p_expected THEN
                        RETURN QUERY SELECT false, v_seq, v_snapshot_seq;
                        RETURN;
                    END IF;
                    INSERT INTO event (board, seq, op_id, client, op, adjusted, committed_at, author)
                        SELECT p_board, (e->>'seq')::bigint, e->>'opId', e->>'client', e->>'op', (e->>'adjusted')::boolean,
                               (e->>'at')::bigint, e->>'by'
                        FROM jsonb_array_elements(p_events) AS e;
                    IF jsonb_array_length(p_answers) > 0 THEN
                        DELETE FROM rejection r USING jsonb_array_elements(p_answers) AS a
                            WHERE r.board = p_board AND r.op_id = a->>'opId';
                        INSERT INTO rejection (board, op_id, code, message, decided_seq, noop_seq)
                            SELECT p_board, d.op_id, d.code, d.message, p_expected + v_count, d.noop_seq
                            FROM (
                                SELECT DISTINCT ON (a->>'opId') a->>'opId' AS op_id, a->>'code' AS code,
                                       a->>'message' AS message, (a->>'noopSeq')::bigint AS noop_seq, n
                                FROM jsonb_array_elements(p_answers) WITH ORDINALITY AS x(a, n)
                                ORDER BY a->>'opId', n DESC
                            ) AS d
                            ORDER BY d.n;
                        -- Answers pile up while the seq stands still (a client sending invalid
                        -- operations): beyond the bound the oldest are forgotten.
                        DELETE FROM rejection WHERE id IN (
                            SELECT id FROM rejection WHERE board = p_board ORDER BY id DESC OFFSET p_keep_answers);
                    END IF;
                    UPDATE board SET seq = p_expected + v_count, locked = coalesce(p_locked, locked) WHERE id = p_board;
                    IF v_count > 0 THEN
                        PERFORM pg_notify('corkboard_commits', p_board || ' ' || (p_expected + v_count));
                    END IF;
                    RETURN QUERY SELECT true, p_expected + v_count, v_snapshot_seq;
                END
                $body$;

                -- As in version 3, giving them back with the events that won.
                CREATE OR REPLACE FUNCTION corkboard_append_or_catch_up(
                    p_board text, p_expected bigint, p_events jsonb, p_answers jsonb, p_locked boolean, p_keep_answers integer
                ) RETURNS TABLE (appended boolean, current_seq bigint, current_snapshot_seq bigint, missing text)
                LANGUAGE plpgsql AS $body$
                DECLARE
                    v_result record;
                BEGIN
                    SELECT * INTO v_result FROM corkboard_append(p_board, p_expected, p_events, p_answers, p_locked, p_keep_answers);
                    IF NOT FOUND THEN
                        RETURN;
                    END IF;
                    IF v_result.appended OR p_expected < v_result.current_snapshot_seq THEN
                        RETURN QUERY SELECT v_result.appended, v_result.current_seq, v_result.current_snapshot_seq, NULL::text;
                        RETURN;
                    END IF;
                    RETURN QUERY SELECT false, v_result.current_seq, v_result.current_snapshot_seq,
                        (SELECT coalesce(json_agg(json_build_object(
                            'seq', e.seq, 'opId', e.op_id, 'client', e.client, 'op', e.op, 'adjusted', e.adjusted,
                            'at', e.committed_at, 'by', e.author) ORDER BY e.seq), '[]')::text
                         FROM (SELECT * FROM event WHERE board = p_board AND seq > p_expected ORDER BY seq LIMIT 512) AS e);
                END
                $body$;
                """),
        Migration(
            version: 7, name: "a board rename keeps the listed title current",
            sql: """
                -- As in version 6, and the listing's title follows the board: the last board rename
                -- of the batch (an update naming neither an item nor a collection) sets it.
                CREATE OR REPLACE FUNCTION corkboard_append(
                    p_board text, p_expected bigint, p_events jsonb, p_answers jsonb, p_locked boolean, p_keep_answers integer
                ) RETURNS TABLE (appended boolean, current_seq bigint, current_snapshot_seq bigint)
                LANGUAGE plpgsql AS $body$
                DECLARE
                    v_seq bigint;
                    v_snapshot_seq bigint;
                    v_count integer := jsonb_array_length(p_events);
                BEGIN
                    SELECT b.seq, b.snapshot_seq INTO v_seq, v_snapshot_seq FROM board b WHERE b.id = p_board FOR UPDATE;
                    IF NOT FOUND THEN
                        RETURN;
                    END IF;
                    IF v_seq <> p_expected THEN
                        RETURN QUERY SELECT false, v_seq, v_snapshot_seq;
                        RETURN;
                    END IF;
                    INSERT INTO event (board, seq, op_id, client, op, adjusted, committed_at, author)
                        SELECT p_board, (e->>'seq')::bigint, e->>'opId', e->>'client', e->>'op', (e->>'adjusted')::boolean,
                               (e->>'at')::bigint, e->>'by'
                        FROM jsonb_array_elements(p_events) AS e;
                    IF jsonb_array_length(p_answers) > 0 THEN
                        DELETE FROM rejection r USING jsonb_array_elements(p_answers) AS a
                            WHERE r.board = p_board AND r.op_id = a->>'opId';
                        INSERT INTO rejection (board, op_id, code, message, decided_seq, noop_seq)
                            SELECT p_board, d.op_id, d.code, d.message, p_expected + v_count, d.noop_seq
                            FROM (
                                SELECT DISTINCT ON (a->>'opId') a->>'opId' AS op_id, a->>'code' AS code,
                                       a->>'message' AS message, (a->>'noopSeq')::bigint AS noop_seq, n
                                FROM jsonb_array_elements(p_answers) WITH ORDINALITY AS x(a, n)
                                ORDER BY a->>'opId', n DESC
                            ) AS d
                            ORDER BY d.n;
                        -- Answers pile up while the seq stands still (a client sending invalid
                        -- operations): beyond the bound the oldest are forgotten.
                        DELETE FROM rejection WHERE id IN (
                            SELECT id FROM rejection WHERE board = p_board ORDER BY id DESC OFFSET p_keep_answers);
                    END IF;
                    UPDATE board SET seq = p_expected + v_count, locked = coalesce(p_locked, locked) WHERE id = p_board;
                    UPDATE board SET title = renamed.title
                        FROM (
                            SELECT (e->>'op')::jsonb->>'title' AS title
                            FROM jsonb_array_elements(p_events) WITH ORDINALITY AS x(e, n)
                            WHERE (e->>'op')::jsonb->>'type' = 'update'
                                AND NOT (e->>'op')::jsonb ? 'item' AND NOT (e->>'op')::jsonb ? 'collection'
                            ORDER BY n DESC LIMIT 1
                        ) AS renamed
                        WHERE id = p_board;
                    IF v_count > 0 THEN
                        PERFORM pg_notify('corkboard_commits', p_board || ' ' || (p_expected + v_count));
                    END IF;
                    RETURN QUERY SELECT true, p_expected + v_count, v_snapshot_seq;
                END
                $body$;
                """),
        Migration(
            version: 8, name: "an append names the epoch of the board it extends",
            sql: """
                -- As the six-argument form, for the board of one epoch only: when the board under
                -- the id was deleted and created again while the batch waited, nothing is written
                -- and no row comes back (the store's .notFound). The row is locked here, so no
                -- delete comes between the check and the append. A NULL epoch is not checked.
                -- Nodes before 0.25 keep calling the six-argument form.
                CREATE OR REPLACE FUNCTION corkboard_append_or_catch_up(
                    p_board text, p_epoch text, p_expected bigint, p_events jsonb, p_answers jsonb, p_locked boolean,
                    p_keep_answers integer
                ) RETURNS TABLE (appended boolean, current_seq bigint, current_snapshot_seq bigint, missing text)
                LANGUAGE plpgsql AS $body$
                BEGIN
                    IF p_epoch IS NOT NULL THEN
                        PERFORM 1 FROM board b WHERE b.id = p_board AND b.epoch = p_epoch FOR UPDATE;
                        IF NOT FOUND THEN
                            RETURN;
                        END IF;
                    END IF;
                    RETURN QUERY SELECT * FROM corkboard_append_or_catch_up(p_board, p_expected, p_events, p_answers, p_locked, p_keep_answers);
                END
                $body$;
                """),
        Migration(
            version: 9, name: "token revocations",
            sql: """
                -- Signed tokens refused before their expiry (docs/security.md#revoking-tokens): of a
                -- user (kind 'sub': those issued before issued_before, seconds since 1970; NULL: all of
                -- them) or one token (kind 'jti'). Every change is announced on corkboard_revocations.
                CREATE TABLE IF NOT EXISTS revocation (
                    kind text NOT NULL,
                    value text NOT NULL,
                    issued_before bigint,
                    revoked_at bigint NOT NULL,
                    PRIMARY KEY (kind, value)
                );
                """),
        Migration(
            version: 10, name: "webhooks",
            sql: """
                -- Webhooks (docs/integrations.md#webhooks): the endpoints made through the API (boards
                -- a JSON array of ids, NULL for every board; created_at in milliseconds), each
                -- endpoint's cursors (stream 'notices' or 'board:<id>', position the last notice id or
                -- seq its receiver acknowledged), the account of its last attempt, the outbox of
                -- boards created and deleted (at in milliseconds; written by createBoard and
                -- deleteBoard in their transaction), and the lease of the one node that delivers.
                CREATE TABLE IF NOT EXISTS webhook_endpoint (
                    id text PRIMARY KEY,
                    url text NOT NULL,
                    secret text NOT NULL,
                    boards text,
                    created_at bigint NOT NULL
                );
                CREATE TABLE IF NOT EXISTS webhook_cursor (
                    endpoint text NOT NULL,
                    stream text NOT NULL,
                    position bigint NOT NULL,
                    PRIMARY KEY (endpoint, stream)
                );
                CREATE TABLE IF NOT EXISTS webhook_status (
                    endpoint text PRIMARY KEY,
                    status text NOT NULL
                );
                CREATE TABLE IF NOT EXISTS webhook_notice (
                    id bigserial PRIMARY KEY,
                    kind text NOT NULL,
                    board text NOT NULL,
                    at bigint NOT NULL
                );
                CREATE TABLE IF NOT EXISTS webhook_lease (
                    name text PRIMARY KEY,
                    holder text NOT NULL,
                    expires_at timestamptz NOT NULL
                );
                """),
        Migration(
            version: 11, name: "column leases across nodes",
            sql: """
                -- Drags of columns lease their columns in the same table as items: a row's key is
                -- an item's id or, with is_column, a column's (a card may carry a column's id, so
                -- the two are kept apart in the key). A holder holds one drag: items or columns.
                -- Each step may run again (a database whose recorded migrations were cut back).
                ALTER TABLE lease ADD COLUMN IF NOT EXISTS is_column boolean NOT NULL DEFAULT false;
                ALTER TABLE lease DROP CONSTRAINT IF EXISTS lease_pkey;
                ALTER TABLE lease ADD PRIMARY KEY (board, is_column, item);

                -- As corkboard_lease, for items (p_columns false) or columns (true): all of p_keys
                -- to p_holder, replacing whatever it held on the board, or none (SQLSTATE CB409
                -- with the holder of one of them as its message).
                CREATE OR REPLACE FUNCTION corkboard_lease_keys(
                    p_board text, p_holder text, p_node text, p_keys text[], p_columns boolean, p_ttl_ms integer
                ) RETURNS void LANGUAGE plpgsql AS $body$
                DECLARE
                    v_holder text;
                BEGIN
                    DELETE FROM lease
                        WHERE board = p_board AND is_column = p_columns AND item = ANY (p_keys) AND expires_at < now();
                    DELETE FROM lease WHERE board = p_board AND holder = p_holder;
                    INSERT INTO lease (board, is_column, item, holder, node, expires_at)
                        SELECT DISTINCT p_board, p_columns, k, p_holder, p_node, now() + p_ttl_ms * interval '1 millisecond'
                        FROM unnest(p_keys) AS k
                        ON CONFLICT (board, is_column, item) DO NOTHING;
                    SELECT holder INTO v_holder FROM lease
                        WHERE board = p_board AND is_column = p_columns AND item = ANY (p_keys) AND holder <> p_holder LIMIT 1;
                    IF FOUND THEN
                        RAISE EXCEPTION USING ERRCODE = 'CB409', MESSAGE = v_holder;
                    END IF;
                END
                $body$;

                -- Migration 2's item lease names a conflict target that is gone: nodes not yet
                -- upgraded, still calling it, lease items through the new function.
                CREATE OR REPLACE FUNCTION corkboard_lease(p_board text, p_holder text, p_node text, p_items text[], p_ttl_ms integer)
                RETURNS void LANGUAGE plpgsql AS $body$
                BEGIN
                    PERFORM corkboard_lease_keys(p_board, p_holder, p_node, p_items, false, p_ttl_ms);
                END
                $body$;
                """),
    ]

    /// The statements of one group (one transaction) that bring any database up to date.
    static var migrationGroup: [PostgresStatement] {
        var statements = [
            PostgresStatement("SELECT pg_advisory_xact_lock(\(migrationLock))"),
            PostgresStatement(
                """
                CREATE TABLE IF NOT EXISTS corkboard_migration (
                    version integer PRIMARY KEY,
                    name text NOT NULL,
                    applied_at timestamptz NOT NULL DEFAULT now()
                )
                """),
        ]
        for migration in migrations {
            statements.append(
                PostgresStatement(
                    """
                    DO $migration$
                    BEGIN
                        IF NOT EXISTS (SELECT 1 FROM corkboard_migration WHERE version = \(migration.version)) THEN
                            \(migration.sql)
                            INSERT INTO corkboard_migration (version, name) VALUES (\(migration.version), '\(migration.name)');
                        END IF;
                    END
                    $migration$
                    """))
        }
        statements.append(PostgresStatement("SELECT max(version) AS version FROM corkboard_migration"))
        return statements
    }
}
