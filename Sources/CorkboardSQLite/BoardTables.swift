import CorkboardModel
import CorkboardStore
import Foundation
import GRDB

/// A board's row without its snapshot blob: what an append needs to check and update.
struct BoardHead: Sendable, Hashable {
    var id: String
    var title: String
    var locked: Bool
    var seq: Int
    var epoch: String
    var snapshotSeq: Int
    var rejectionCount: Int
}

/// Stored data that does not decode or does not apply (written by a bug, or edited by
/// hand): the store answers `.unavailable` for that board and keeps serving the others.
struct StoredDataError: Error, CustomStringConvertible {
    var description: String
}

/// The SQL of the store, one statement per function, on a `Database` the caller holds
/// (inside the store's serial queue). Hot statements are cached: prepared once per
/// connection, not once per call.
enum BoardTables {
    // MARK: Boards

    static func head(_ db: Database, _ id: String) throws -> BoardHead? {
        let statement = try db.cachedStatement(
            sql: """
                SELECT id, title, locked, seq, epoch, snapshotSeq, rejectionCount FROM board WHERE id = ?
                """)
        guard let row = try Row.fetchOne(statement, arguments: [id]) else { return nil }
        return BoardHead(
            id: row["id"], title: row["title"], locked: row["locked"], seq: row["seq"],
            epoch: row["epoch"], snapshotSeq: row["snapshotSeq"], rejectionCount: row["rejectionCount"])
    }

    static func snapshot(_ db: Database, _ id: String) throws -> Board {
        let statement = try db.cachedStatement(sql: "SELECT snapshot FROM board WHERE id = ?")
        guard let data = try Data.fetchOne(statement, arguments: [id]) else {
            throw StoredDataError(description: "board \(id) has no snapshot")
        }
        do {
            return try JSONDecoder().decode(Board.self, from: data)
        } catch {
            throw StoredDataError(description: "the snapshot of board \(id) does not decode: \(error)")
        }
    }

    static func summaries(_ db: Database) throws -> [BoardSummary] {
        try Row.fetchAll(db, sql: "SELECT id, title, seq FROM board ORDER BY id").map {
            BoardSummary(id: $0["id"], title: $0["title"], seq: $0["seq"])
        }
    }

    /// A new board row whose log is empty: the snapshot is the board at `seq`.
    static func insertBoard(_ db: Database, _ board: Board, seq: Int, epoch: String) throws {
        try insertBoard(db, board, seq: seq, epoch: epoch, snapshot: board, snapshotSeq: seq)
    }

    /// A new board row: `board` at `seq` (its listed title and lock) whose snapshot is
    /// `snapshot` at `snapshotSeq`; the events between are the caller's to insert.
    static func insertBoard(_ db: Database, _ board: Board, seq: Int, epoch: String, snapshot: Board, snapshotSeq: Int) throws {
        try db.execute(
            sql: """
                INSERT INTO board (id, title, locked, seq, epoch, snapshot, snapshotSeq, rejectionCount)
                VALUES (?, ?, ?, ?, ?, ?, ?, 0)
                """,
            arguments: [board.id, board.title, board.locked, seq, epoch, try encode(snapshot), snapshotSeq])
    }

    /// Deletes a board's row and every row kept for it; false when there was no such board.
    static func deleteBoard(_ db: Database, _ id: String) throws -> Bool {
        try deleteHistory(db, id)
        try db.execute(sql: "DELETE FROM board WHERE id = ?", arguments: [id])
        return db.changesCount > 0
    }

    /// Deletes what a board keeps besides its row: its log, remembered answers and folded opIds.
    private static func deleteHistory(_ db: Database, _ id: String) throws {
        try db.execute(sql: "DELETE FROM event WHERE board = ?", arguments: [id])
        try db.execute(sql: "DELETE FROM rejection WHERE board = ?", arguments: [id])
        try db.execute(sql: "DELETE FROM folded_op WHERE board = ?", arguments: [id])
    }

    static func updateAfterAppend(_ db: Database, _ head: BoardHead) throws {
        let statement = try db.cachedStatement(
            sql: "UPDATE board SET seq = ?, locked = ?, title = ?, rejectionCount = ? WHERE id = ?")
        try statement.execute(arguments: [head.seq, head.locked, head.title, head.rejectionCount, head.id])
    }

    static func updateSnapshot(_ db: Database, _ id: String, encoded snapshot: Data, seq: Int) throws {
        try db.execute(sql: "UPDATE board SET snapshot = ?, snapshotSeq = ? WHERE id = ?", arguments: [snapshot, seq, id])
    }

    // MARK: Events

    /// Returns the events' stored bytes (`LogRetention.storedBytes`).
    static func insertEvents(_ db: Database, board: String, _ events: [CommittedEvent]) throws -> Int {
        let statement = try db.cachedStatement(
            sql: """
                INSERT INTO event (board, seq, opId, client, op, adjusted, committedAt, author) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """)
        let encoder = JSONEncoder()
        var bytes = 0
        for event in events {
            let op = String(decoding: try encoder.encode(event.op), as: UTF8.self)
            try statement.execute(arguments: [board, event.seq, event.opId, event.client, op, event.adjusted, event.at, event.by])
            bytes += LogRetention.storedBytes(opJSONBytes: op.utf8.count, opId: event.opId, authorBytes: event.by?.utf8.count ?? 0)
        }
        return bytes
    }

    /// The seqs and stored bytes (`LogRetention.storedBytes`) of the board's log, newest first:
    /// what `LogFolding` measures it by.
    static func storedSizesNewestFirst(_ db: Database, board: String) throws -> [(seq: Int, bytes: Int)] {
        let statement = try db.cachedStatement(
            sql: """
                SELECT seq, length(CAST(op AS BLOB)) AS opBytes, opId, coalesce(length(CAST(author AS BLOB)), 0) AS authorBytes
                FROM event WHERE board = ? ORDER BY seq DESC
                """)
        return try Row.fetchAll(statement, arguments: [board]).map { row in
            (seq: row["seq"], bytes: LogRetention.storedBytes(opJSONBytes: row["opBytes"], opId: row["opId"], authorBytes: row["authorBytes"]))
        }
    }

    /// Events of `board` with `after < seq <= through`, oldest first, at most `limit`.
    static func events(_ db: Database, board: String, after: Int, through: Int = .max, limit: Int = .max) throws -> [CommittedEvent] {
        let statement = try db.cachedStatement(
            sql: """
                SELECT seq, opId, client, op, adjusted, committedAt, author FROM event
                WHERE board = ? AND seq > ? AND seq <= ? ORDER BY seq LIMIT ?
                """)
        let decoder = JSONDecoder()
        var events: [CommittedEvent] = []
        let rows = try Row.fetchCursor(statement, arguments: [board, after, through, max(0, limit)])
        while let row = try rows.next() {
            let seq: Int = row["seq"]
            let text: String = row["op"]
            let op: BoardOperation
            do {
                op = try decoder.decode(BoardOperation.self, from: Data(text.utf8))
            } catch {
                throw StoredDataError(description: "event \(seq) of board \(board) does not decode: \(error)")
            }
            events.append(
                CommittedEvent(
                    seq: seq, opId: row["opId"], client: row["client"], op: op, adjusted: row["adjusted"], at: row["committedAt"],
                    by: row["author"]))
        }
        return events
    }

    /// The snapshot and the operations of the events with `after < seq <= through`, as stored
    /// (not decoded): what a fold reads.
    static func storedLog(_ db: Database, board: String, after: Int, through: Int) throws -> StoredLogPiece {
        guard let snapshot = try Data.fetchOne(db, sql: "SELECT snapshot FROM board WHERE id = ?", arguments: [board]) else {
            throw StoredDataError(description: "board \(board) has no snapshot")
        }
        let rows = try Row.fetchAll(
            db, sql: "SELECT seq, op FROM event WHERE board = ? AND seq > ? AND seq <= ? ORDER BY seq", arguments: [board, after, through])
        return StoredLogPiece(snapshot: snapshot, operations: rows.map { (seq: $0["seq"], json: $0["op"]) })
    }

    /// Keeps the opIds of the events through `foldedThrough` (about to be folded away) and
    /// forgets those kept through `forgettingThrough`.
    static func keepOpIds(_ db: Database, board: String, foldedThrough seq: Int, forgettingThrough oldest: Int) throws {
        try db.execute(
            sql: "INSERT OR REPLACE INTO folded_op (board, seq, opId) SELECT board, seq, opId FROM event WHERE board = ? AND seq <= ? AND seq > ?",
            arguments: [board, seq, oldest])
        try db.execute(sql: "DELETE FROM folded_op WHERE board = ? AND seq <= ?", arguments: [board, oldest])
    }

    /// The kept opIds of folded events after `seq`, oldest first.
    static func foldedCommits(_ db: Database, board: String, after seq: Int) throws -> [FoldedCommit] {
        try Row.fetchAll(db, sql: "SELECT opId, seq FROM folded_op WHERE board = ? AND seq > ? ORDER BY seq", arguments: [board, seq])
            .map { FoldedCommit(opId: $0["opId"], seq: $0["seq"]) }
    }

    static func deleteEvents(_ db: Database, board: String, through seq: Int) throws {
        try db.execute(sql: "DELETE FROM event WHERE board = ? AND seq <= ?", arguments: [board, seq])
    }

    // MARK: Rejections

    /// The code a remembered noop is stored under, beside the rejection codes.
    private static let noopCode = "noop"

    /// Remembers rejections and noops decided at `decidedSeq`; an answer for an opId
    /// already remembered replaces the old one. Returns how many rows the board gained.
    static func remember(_ db: Database, board: String, _ rejections: [Rejection], _ noops: [Noop], decidedSeq: Int) throws -> Int {
        let forget = try db.cachedStatement(sql: "DELETE FROM rejection WHERE board = ? AND opId = ?")
        let insert = try db.cachedStatement(
            sql: """
                INSERT INTO rejection (board, opId, code, message, decidedSeq, noopSeq) VALUES (?, ?, ?, ?, ?, ?)
                """)
        var gained = 0
        let rows =
            rejections.map { ($0.opId, $0.code.rawValue, $0.message, nil as Int?) }
            + noops.map { ($0.opId, noopCode, "", $0.seq as Int?) }
        for (opId, code, message, noopSeq) in rows {
            try forget.execute(arguments: [board, opId])
            gained -= db.changesCount
            try insert.execute(arguments: [board, opId, code, message, decidedSeq, noopSeq])
            gained += 1
        }
        return gained
    }

    /// The remembered answers of a board, in the order decided.
    static func answers(_ db: Database, board: String) throws -> (rejections: [Rejection], noops: [Noop]) {
        var rejections: [Rejection] = []
        var noops: [Noop] = []
        let rows = try Row.fetchAll(
            db, sql: "SELECT opId, code, message, noopSeq FROM rejection WHERE board = ? ORDER BY id", arguments: [board])
        for row in rows {
            let code: String = row["code"]
            if code == noopCode, let seq: Int = row["noopSeq"] {
                noops.append(Noop(opId: row["opId"], seq: seq))
            } else if let known = RejectionCode(rawValue: code) {
                rejections.append(Rejection(opId: row["opId"], code: known, message: row["message"]))
            } else {
                throw StoredDataError(description: "a remembered answer of board \(board) has the unknown code \(code)")
            }
        }
        return (rejections, noops)
    }

    /// Forgets rejections decided at or before `seq`. Returns how many were removed.
    static func forgetRejections(_ db: Database, board: String, decidedThrough seq: Int) throws -> Int {
        try db.execute(sql: "DELETE FROM rejection WHERE board = ? AND decidedSeq <= ?", arguments: [board, seq])
        return db.changesCount
    }

    /// Forgets the `count` oldest rejections of a board. Returns how many were removed.
    static func forgetOldestRejections(_ db: Database, board: String, count: Int) throws -> Int {
        try db.execute(
            sql: "DELETE FROM rejection WHERE id IN (SELECT id FROM rejection WHERE board = ? ORDER BY id LIMIT ?)",
            arguments: [board, count])
        return db.changesCount
    }

    // MARK: Encoding

    static func encode(_ board: Board) throws -> Data {
        try JSONEncoder().encode(board)
    }
}
