import CorkboardModel
import CorkboardStore
import CorkboardWire
import Foundation

/// One message to an endpoint (docs/integrations.md#payloads): its `webhook-id`, the same at
/// every attempt (the receiver's idempotency key), and its body
/// `{"data":{…},"timestamp":"<ISO 8601>","type":"…"}`, also the same at every attempt.
public struct WebhookMessage: Sendable, Hashable {
    public var id: String
    public var type: String
    public var body: [UInt8]

    /// `board.committed`, id `<board>:<seq>`: `data` is the event exactly as the log
    /// (`GET /api/boards/{id}/ops`) and the event stream give it, with `board` added.
    static func committed(_ event: CommittedEvent, board: String) throws -> WebhookMessage {
        let encoded = try WireFormat.encode(ServerMessage.committed(event))
        // The event is a JSON object: `board` goes in as its first member.
        let data = Array(#"{"board":"#.utf8) + jsonString(board) + [UInt8(ascii: ",")] + encoded.dropFirst()
        return make(id: "\(board):\(event.seq)", type: "board.committed", at: event.at.map(Int64.init), data: data)
    }

    /// `board.created` or `board.deleted`, id `notice-<n>`: `data` is `{"board":"…"}`.
    static func notice(_ notice: WebhookNotice) -> WebhookMessage {
        make(
            id: "notice-\(notice.id)", type: notice.kind.rawValue, at: notice.atMilliseconds,
            data: Array(#"{"board":"#.utf8) + jsonString(notice.board) + [UInt8(ascii: "}")])
    }

    /// `board.skipped`, id `<board>:skipped-<through>`: the events after `after` up to `through`
    /// were folded away before they could be delivered (the endpoint lagged behind the kept
    /// log); the board's state is current from seq `through` on (read it with
    /// `GET /api/boards/{id}`), and its events after `through` follow.
    static func skipped(board: String, after: Int, through: Int) -> WebhookMessage {
        make(
            id: "\(board):skipped-\(through)", type: "board.skipped", at: nil,
            data: Array(#"{"board":"#.utf8) + jsonString(board) + Array(#","from":\#(after + 1),"through":\#(through)}"#.utf8))
    }

    /// What `corkboard webhook test` sends: `webhook.test`, with a fresh id.
    public static func test(board: String) -> WebhookMessage {
        make(
            id: "test-\(Epoch.make())", type: "webhook.test", at: nil,
            data: Array(#"{"board":"#.utf8) + jsonString(board) + Array(#","message":"a test delivery from corkboard webhook test"}"#.utf8))
    }

    private static func make(id: String, type: String, at milliseconds: Int64?, data: [UInt8]) -> WebhookMessage {
        let date = milliseconds.map { Date(timeIntervalSince1970: Double($0) / 1000) } ?? Date()
        let body =
            Array(#"{"data":"#.utf8) + data + Array(#","timestamp":"#.utf8) + jsonString(timestamp(date)) + Array(#","type":"#.utf8)
            + jsonString(type) + [UInt8(ascii: "}")]
        return WebhookMessage(id: id, type: type, body: body)
    }

    /// ISO 8601 in UTC with milliseconds: `2026-11-29T17:02:03.456Z`.
    static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }

    private static func jsonString(_ text: String) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        return Array((try? encoder.encode(text)) ?? Data("\"\"".utf8))
    }
}
