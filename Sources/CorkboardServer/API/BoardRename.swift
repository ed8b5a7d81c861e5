import CorkboardModel
import CorkboardWire
import Foundation
import HTTP

/// `PATCH /api/boards/{id}` (docs/protocol.md#8-http-api): the board's new title as an
/// operation like any other (`{"type":"update","title":…}`), so that it is sequenced, made
/// durable and reaches every member, on every node, as a `committed` event. The answer is in
/// the API's shape, not the operation's: `{"id","seq","title"}` or the error body.
enum BoardRename {
    /// The operation for one request; its opId is fresh, so a PATCH is never taken for the
    /// repeat of another (renaming to the same title again commits again, as a lock does).
    static func request(title: String) -> OperationRequest {
        OperationRequest(opId: "rename-" + UUID().uuidString.lowercased(), .renameBoard(title: title))
    }

    static func response(to outcome: Outcome, board: String, title: String) -> HTTPResponse {
        switch outcome {
        case .committed(let commit):
            return renamed(board, title, seq: commit.event.seq)
        case .repeated(.committed(let event)):
            return renamed(board, title, seq: event.seq)
        case .noop(let noop), .repeated(.noop(let noop)):
            return renamed(board, title, seq: noop.seq)
        case .rejected(let rejection), .repeated(.rejected(let rejection)):
            guard rejection.code == .rateLimited else { return .error(BoardAPI.status(of: rejection.code), rejection.message) }
            // The rate's own message asks for the same opId again, which a PATCH does not have.
            // Its Retry-After and RateLimit fields are added by the route (RateLimitFields).
            return .error(.tooManyRequests, "more operations from this address than the server's rate allows; retry after Retry-After")
        }
    }

    private static func renamed(_ board: String, _ title: String, seq: Int) -> HTTPResponse {
        do {
            return .json(.ok, Array(try WireFormat.encode(BoardSummary(id: board, title: title, seq: seq))))
        } catch {
            return .error(.internalServerError, "the answer could not be encoded: \(error)")
        }
    }
}
