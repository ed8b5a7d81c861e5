import CorkboardHub
import CorkboardModel
import CorkboardWire
import Foundation
import HTTP

/// A board's log over HTTP (docs/protocol.md#8-http-api): `POST …/ops` submits an operation and
/// answers its outcome, `GET …/ops` reads committed events in pages, `GET …/events` follows
/// them as server-sent events (`EventStreamRoute`).
enum BoardLogRoutes {
    static func add(to routes: inout APIRouteTable, hub: Hub, pageBytes: Int, eventStream: @escaping APIHandler<BoardAccess>) {
        routes.add(.GET, "/api/boards/{id}/ops", .boardMember, page(hub: hub, pageBytes: pageBytes))
        routes.add(.GET, "/api/boards/{id}/events", .boardMember, eventStream)
        // Any role: the resolver refuses what the role may not do (a viewer's edit), as over the WebSocket.
        routes.add(.POST, "/api/boards/{id}/ops", .boardMember, submit(hub: hub))
    }

    /// Committed events after `since`, at most `limit` and about `pageBytes`, with `next`.
    static func page(hub: Hub, pageBytes: Int) -> APIHandler<BoardAccess> {
        { request, access, responder in
            let query: OpsPageQuery
            switch OpsPageQuery.parse(request.queryPairs) {
            case .success(let parsed): query = parsed
            case .failure(let error): return responder.respond(.error(.badRequest, error.message))
            }
            // One more than the page: whether it is there tells if the page is the last.
            hub.events(board: access.board, since: query.since, limit: query.limit + 1) { result in
                responder.respond(
                    result.map { events in
                        do {
                            let page = try EventPage.encodedPage(
                                Array(events.prefix(query.limit)), byteBudget: pageBytes, more: events.count > query.limit)
                            return .json(.ok, page.body)
                        } catch {
                            return .error(.internalServerError, "the answer could not be encoded: \(error)")
                        }
                    })
            }
        }
    }

    /// One operation, resolved and sequenced as a WebSocket member's, answered with its outcome.
    static func submit(hub: Hub) -> APIHandler<BoardAccess> {
        { request, access, responder in
            guard QueryParameters.read(request, responder) != nil else { return }
            switch WireFormat.decodeClientMessage(Data(request.body)) {
            case .message(.operation(let operation)):
                let caller = request.clientAddress ?? "local"
                hub.submit(
                    operation, board: access.board, role: access.role, author: access.holder.httpAuthor, caller: caller,
                    bytes: request.body.count
                ) { result in
                    responder.respond(
                        result.map { outcome in
                            RateLimitFields.added(to: OperationAnswer.response(ServerMessage(outcome)), hub: hub, caller: caller)
                        })
                }
            case .rejected(let rejected):
                // It names its opId: the operation's outcome, as a WebSocket member gets it.
                responder.respond(OperationAnswer.response(.rejected(rejected)))
            case .error(let error):
                responder.respond(.error(.badRequest, error.message))
            case .message:
                responder.respond(
                    .error(
                        .badRequest, "the body must be one operation (move, insert, delete, update, collection.add, collection.remove, collection.move, lock)"))
            }
        }
    }
}
