import Foundation

/// One WebSocket connection on `/ws`: waits for `hello`, then hands moves to its board.
/// Owned by the task that reads the connection (not shared), which calls `receive` for
/// every text message in order and `end` once when the connection is over.
public final class PeerSession {
    private let directory: BoardDirectory
    private let outbox: Outbox
    private var joined: (room: BoardRoom, client: String)?
    private let decoder = JSONDecoder()

    public init(directory: BoardDirectory, outbox: Outbox) {
        self.directory = directory
        self.outbox = outbox
    }

    public func receive(_ text: String) async {
        let message: ClientMessage
        do {
            message = try decoder.decode(ClientMessage.self, from: Data(text.utf8))
        } catch {
            return answerUndecodable(text)
        }
        guard let (room, client) = joined else {
            return await hello(message)
        }
        switch message.type {
        case "move":
            guard let opId = message.opId else {
                return sendError("invalid", "a move needs a string opId")
            }
            guard let baseSeq = message.baseSeq, let sources = message.sources, let destination = message.destination else {
                return sendRejected(opId, "a move needs baseSeq, sources and destination {collection, before}")
            }
            await room.move(opId: opId, baseSeq: baseSeq, sources: sources, destination: destination, from: client)
        case "hello":
            sendError("invalid", "already joined")
        default:
            sendError("invalid", "this server handles only hello and move, not \"\(message.type)\"")
        }
    }

    /// A binary message on `/ws`: not part of the protocol (close 1003).
    public func receiveBinary() {
        outbox.yield(.close(code: CloseCode.unsupportedData, reason: "messages are JSON text"))
    }

    /// The connection is over: leave the board.
    public func end() async {
        if let (room, client) = joined { await room.leave(client: client) }
        joined = nil
    }

    private func hello(_ message: ClientMessage) async {
        guard message.type == "hello", let boardID = message.board else {
            return refuse("invalid", "the first message must be hello with a board")
        }
        guard let room = await directory.room(boardID) else {
            return refuse("not-found", "there is no board \"\(boardID)\"")
        }
        let client = await room.join(outbox: outbox)
        joined = (room, client)
    }

    private func answerUndecodable(_ text: String) {
        let identity = try? decoder.decode(OperationIdentity.self, from: Data(text.utf8))
        if joined == nil {
            return refuse("invalid", "the first message must be hello with a board")
        }
        if identity?.type == "move", let opId = identity?.opId {
            return sendRejected(opId, "a field of the move has the wrong type")
        }
        sendError("invalid", "not a message of this protocol (a JSON object with a string type)")
    }

    private func refuse(_ code: String, _ message: String) {
        sendError(code, message)
        outbox.yield(.close(code: CloseCode.policyViolation, reason: code))
    }

    private func sendError(_ code: String, _ message: String) {
        outbox.yield(.text(JSONText.encode(ErrorMessage(code: code, message: message))))
    }

    private func sendRejected(_ opId: String, _ message: String) {
        outbox.yield(.text(JSONText.encode(Rejected(opId: opId, code: "invalid", message: message))))
    }
}
