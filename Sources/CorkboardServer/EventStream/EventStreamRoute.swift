import CoreMetrics
import CorkboardHub
import HTTP

/// `GET /api/boards/{id}/events` (docs/protocol.md#event-stream): the board's committed
/// events as server-sent events, for integrations. Read access as for `GET /api/boards/{id}`
/// (401, 403, 404 alike); the query is checked before anything is followed (400).
enum EventStreamRoute {
    static func handler(
        hub: Hub, settings: EventStreamSettings, outputBound: Int, openStreams: Meter?
    ) -> HTTPHandler {
        { request, responder in
            let board = request.pathParameters["id"] ?? ""
            guard BoardAPI.authorize(request, board: board, hub: hub, responder) != nil,
                case .some(let token) = BoardAPI.bearerToken(request, responder)
            else { return }
            let query: EventStreamQuery
            switch EventStreamQuery.parse(request.queryPairs, lastEventID: request.headers["Last-Event-ID"]) {
            case .success(let parsed): query = parsed
            case .failure(let error): return responder.respond(.error(.badRequest, error.message))
            }
            let link = EventStreamLink(
                responder: responder, headOnly: request.method == .HEAD, settings: settings, outputBound: outputBound,
                openStreams: openStreams)
            link.start(hub: hub, board: board, token: token, query: query)
        }
    }
}
