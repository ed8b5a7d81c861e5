import CoreMetrics
import CorkboardHub
import CorkboardModel
import CorkboardWire
import Foundation
import HTTP

/// The JSON API (docs/protocol.md#8-http-api) on top of the hub: the same resolver and the
/// same broadcast as the WebSocket, with the status the protocol gives each outcome.
enum BoardAPI {
    /// Tokens are judged by the hub's access policy in force at each request (it changes
    /// when the token file is reloaded).
    /// With `allowedOrigins`, a request from a browser page of another origin is refused (403)
    /// before anything else, as at the WebSocket handshake: no other site's page can change a
    /// board through its visitors' browsers (in open mode, or with a token the page obtained).
    /// `outputBound` is the connections' output bound: a page of `…/ops` stays well under it,
    /// and an event stream's reader is dropped past it. `openStreams` counts the event streams.
    /// `node` is what the admin API tells of this node and drains.
    static func add(
        to router: inout Router, hub: Hub, allowedOrigins: Set<String>? = nil, outputBound: Int = 4 << 20,
        eventStreams: EventStreamSettings = EventStreamSettings(), openStreams: Meter? = nil,
        node: NodeStatus = NodeStatus(), webhooks: WebhookDeliverer? = nil
    ) {
        var routes = APIRouteTable(on: router, crossOrigin: CrossOrigin(allowedOrigins: allowedOrigins), hub: hub)
        routes.add(.GET, "/api/openapi.json", .open) { request, _, responder in
            guard QueryParameters.read(request, responder) != nil else { return }
            responder.respond(.json(.ok, OpenAPIDocument.bytes))
        }
        RevocationRoutes.add(to: &routes, hub: hub)
        AdminRoutes.add(to: &routes, hub: hub, node: node)
        WebhookRoutes.add(to: &routes, webhooks: webhooks)
        ArchiveRoutes.add(to: &routes, hub: hub)
        BoardRoutes.add(to: &routes, hub: hub)
        BoardLogRoutes.add(
            to: &routes, hub: hub, pageBytes: pageBudget(outputBound: outputBound),
            eventStream: EventStreamRoute.handler(hub: hub, settings: eventStreams, outputBound: outputBound, openStreams: openStreams))
        router = routes.finish()
    }

    /// Bytes a page of `…/ops` may take (one event may pass it alone): a quarter of the output
    /// bound, at most 1 MiB, so a page is written at once and a pipelined one may follow.
    static func pageBudget(outputBound: Int) -> Int {
        min(1 << 20, outputBound / 4)
    }

    /// `GET /api/boards/{id}`: whole when the board fits one piece, else written as the client
    /// reads it (counted first, for its `Content-Length`, unless `lengths` knows it): a board
    /// may be hundreds of MB.
    static func documentResponse(_ document: BoardDocument, lengths: DocumentLengths) -> HTTPResponse {
        var pieces = BoardDocumentPieces(document)
        let first = pieces.next() ?? []
        guard let second = pieces.next() else { return .json(.ok, first) }
        let length = lengths.length(of: document) { first.count + second.count + pieces.reduce(0) { $0 + $1.count } }
        let stream = HTTPBodyStream(length: length) {
            var pieces = BoardDocumentPieces(document)
            return { pieces.next() }
        }
        return HTTPResponse(status: .ok, headers: ["Content-Type": "application/json"], stream: stream)
    }

    /// The status of an operation's answer (docs/protocol.md#8-http-api).
    static func status(of message: ServerMessage) -> HTTPStatus {
        guard case .rejected(let rejected) = message else { return .ok }
        return status(of: rejected.code)
    }

    /// The status of a rejection code, whichever body carries it.
    static func status(of code: RejectionCode) -> HTTPStatus {
        switch code {
        case .invalid: return .badRequest
        case .forbidden: return .forbidden
        case .gone, .busy: return .conflict
        case .locked: return .locked
        case .rateLimited: return .tooManyRequests
        case .unavailable: return .serviceUnavailable
        }
    }

    /// `value` as the JSON body of a `status` answer.
    static func json(_ status: HTTPStatus, _ value: some Encodable) -> HTTPResponse {
        do {
            return .json(status, Array(try WireFormat.encode(value)))
        } catch {
            return .error(.internalServerError, "the answer could not be encoded: \(error)")
        }
    }
}

extension HTTPResponse {
    /// A hub answer: the success response, or the error's status with a JSON error body.
    static func from(_ result: Result<HTTPResponse, HubError>) -> HTTPResponse {
        switch result {
        case .success(let response): response
        case .failure(let error): .error(error.status, error.description)
        }
    }
}

extension HTTPResponder {
    func respond(_ result: Result<HTTPResponse, HubError>) { respond(.from(result)) }
}

extension HubError {
    var status: HTTPStatus {
        switch self {
        case .notFound: .notFound
        case .alreadyExists: .conflict
        case .invalid: .badRequest
        case .gone: .gone
        case .unavailable: .serviceUnavailable
        case .limitReached: .insufficientStorage
        }
    }
}
