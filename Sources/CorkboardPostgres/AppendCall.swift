import CorkboardModel
import CorkboardStore
import Foundation

/// A `CommitBatch` as one call of `corkboard_append` (PostgresSchema): the events and the
/// remembered answers as JSON arrays, so a batch of any size is one statement and one
/// round trip. An event's `op` travels as a JSON string and is stored verbatim.
struct AppendCall {
    /// The code a remembered noop is stored under, beside the rejection codes (as in SQLite).
    static let noopCode = "noop"

    /// An event as `corkboard_append` takes it and `corkboard_append_or_catch_up` gives it back.
    struct EventRow: Codable {
        var seq: Int
        var opId: String
        var client: String
        var op: String
        var adjusted: Bool
        /// Absent (null) for events stored before migration 6.
        var at: Int?
        var by: String?

        /// `event` as a row; its operation as JSON text, by `encoder`.
        init(_ event: CommittedEvent, encoder: JSONEncoder) throws {
            seq = event.seq
            opId = event.opId
            client = event.client
            op = String(decoding: try encoder.encode(event.op), as: UTF8.self)
            adjusted = event.adjusted
            at = event.at
            by = event.by
        }
    }

    /// The events a conflict answer carries, decoded.
    static func events(fromJSON text: String) throws -> [CommittedEvent] {
        let decoder = JSONDecoder()
        return try decoder.decode([EventRow].self, from: Data(text.utf8)).map { row in
            CommittedEvent(
                seq: row.seq, opId: row.opId, client: row.client,
                op: try decoder.decode(BoardOperation.self, from: Data(row.op.utf8)), adjusted: row.adjusted, at: row.at, by: row.by)
        }
    }

    private struct AnswerRow: Encodable {
        var opId: String
        var code: String
        var message: String
        var noopSeq: Int?
    }

    let statement: PostgresStatement

    init(_ batch: CommitBatch, keepAnswers: Int) throws {
        let encoder = JSONEncoder()
        let events = try batch.events.map { try EventRow($0, encoder: encoder) }
        let answers =
            batch.rejections.map { AnswerRow(opId: $0.opId, code: $0.code.rawValue, message: $0.message) }
            + batch.noops.map { AnswerRow(opId: $0.opId, code: Self.noopCode, message: "", noopSeq: $0.seq) }
        // Keep the listing's `locked` current without decoding the snapshot: the last lock
        // operation of the batch decides; NULL leaves it as it is.
        var locked: Bool?
        for event in batch.events {
            if case .lock(let value) = event.op { locked = value }
        }
        statement = PostgresStatement(
            "SELECT appended, current_seq, current_snapshot_seq, missing FROM corkboard_append_or_catch_up($1, $7, $2, $3, $4, $5, $6)",
            [
                batch.board, String(batch.expectedSeq),
                String(decoding: try encoder.encode(events), as: UTF8.self),
                String(decoding: try encoder.encode(answers), as: UTF8.self),
                locked.map { $0 ? "true" : "false" }, String(keepAnswers), batch.epoch,
            ])
    }
}
