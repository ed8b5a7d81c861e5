import CorkboardWire
import Foundation

/// The bytes of an event stream (`text/event-stream`, docs/protocol.md#event-stream), each
/// piece one HTTP/1.1 chunk: the response's length is unknown, and chunked framing lets its
/// end be told from a connection that broke (`end`).
enum EventStreamFrame {
    /// `id: <id>` (if any), `event: <name>`, `data: <data>`, and the blank line that
    /// dispatches it. JSON written by the server is one line; a line break would end `data`,
    /// so any is split into `data:` lines, which the reader joins again.
    static func event(_ name: String, id: Int?, data: String) -> [UInt8] {
        var text = id.map { "id: \($0)\n" } ?? ""
        text += "event: \(name)\n"
        if data.utf8.contains(where: { $0 == 0x0A || $0 == 0x0D }) {
            for line in data.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) { text += "data: \(line)\n" }
        } else {
            text += "data: \(data)\n"
        }
        return chunk(text + "\n")
    }

    /// A comment line (`: ping`): ignored by readers, but it shows the stream is alive.
    static func comment(_ text: String) -> [UInt8] { chunk(": \(text)\n\n") }

    /// How long a reader waits before reconnecting.
    static func retry(milliseconds: Int) -> [UInt8] { chunk("retry: \(milliseconds)\n\n") }

    /// The last chunk: the stream ended on purpose.
    static let end = Array("0\r\n\r\n".utf8)

    private static func chunk(_ payload: String) -> [UInt8] {
        let bytes = Array(payload.utf8)
        return Array("\(String(bytes.count, radix: 16))\r\n".utf8) + bytes + [0x0D, 0x0A]
    }
}

/// What one message of the hub to its observer becomes in an event stream.
enum EventStreamMessage {
    /// The join was accepted; a stream that starts afresh begins with `reset` (nil: it resumed).
    case welcome(reset: [UInt8]?)
    /// An event to write.
    case event([UInt8])
    /// An `error` from the hub (the join refused, or the member sent away): written as
    /// `event: gone` when the board was deleted, `event: error` otherwise; the close follows.
    case refusal(ErrorMessage, event: [UInt8])
    /// Presence: not part of the stream.
    case ignored

    /// The message whose JSON text the hub sent. Presence (most of what a busy board sends)
    /// is told apart by its last member, `"type"`, without being decoded: keys are sorted and
    /// `type` sorts after every other key of a server message.
    init(text: String) {
        if Self.presenceEndings.contains(where: text.hasSuffix) {
            self = .ignored
            return
        }
        let message: ServerMessage
        do {
            message = try WireFormat.decodeServerMessage(Data(text.utf8))
        } catch {
            // The hub wrote it: never malformed; if it ever is, the reader is told rather than left guessing.
            let problem = ErrorMessage(code: ErrorCode(rawValue: "internal"), message: "the server could not read its own message: \(error)")
            self = .refusal(problem, event: EventStreamFrame.event("error", id: nil, data: Self.json(ServerMessage.error(problem))))
            return
        }
        switch message {
        case .welcome(let welcome):
            guard !welcome.resumed, let board = welcome.board else {
                self = .welcome(reset: nil)
                return
            }
            let document = BoardDocument(board: board, seq: welcome.seq, epoch: welcome.epoch)
            self = .welcome(reset: EventStreamFrame.event("reset", id: welcome.seq, data: Self.json(document)))
        case .committed(let event):
            // The hub's text is the ops page's bytes: the same writer (`WireFormat`) made both.
            self = .event(EventStreamFrame.event("committed", id: event.seq, data: text))
        case .error(let error):
            self = .refusal(error, event: EventStreamFrame.event(error.code == .gone ? "gone" : "error", id: nil, data: text))
        case .peerJoined, .peerLeft, .peers, .peersPage, .drag, .dragOver, .dragCleared, .drags, .editing, .noop, .rejected, .pong, .tokenAccepted,
            .tokenRefused:
            // Presence, and answers to operations, pings and tokens an event stream never sends.
            self = .ignored
        }
    }

    private static let presenceEndings = ["peer.joined", "peer.left", "peers", "drag", "drag.over", "drag.cleared", "drags"].map { #""type":"\#($0)"}"# }

    private static func json(_ value: some Encodable) -> String {
        (try? WireFormat.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }
}
