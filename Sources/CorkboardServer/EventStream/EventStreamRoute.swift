import CoreMetrics
import CorkboardHub
import HTTP

/// `GET /api/boards/{id}/events` (docs/protocol.md#event-stream): the board's committed
/// events as server-sent events, for integrations. Read access as for `GET /api/boards/{id}`
/// (401, 403, 404 alike: the route declares `.boardMember`); the query is checked before
/// anything is followed (400).
enum EventStreamRoute {
    static func handler(
        hub: Hub, settings: EventStreamSettings, outputBound: Int, openStreams: Meter?
    ) -> APIHandler<BoardAccess> {
        { request, access, responder in
            let query: EventStreamQuery
            switch EventStreamQuery.parse(request.queryPairs, lastEventID: request.headers["Last-Event-ID"]) {
            case .success(let parsed): query = parsed
            case .failure(let error): return responder.respond(.error(.badRequest, error.message))
            }
            let link = EventStreamLink(
                responder: responder, headOnly: request.method == .HEAD, settings: settings, outputBound: outputBound,
                openStreams: openStreams)
            link.start(hub: hub, board: access.board, token: access.token, query: query)
        }
    }
}
