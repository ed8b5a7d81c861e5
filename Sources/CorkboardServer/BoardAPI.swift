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
    static func add(to router: inout Router, hub: Hub, allowedOrigins: Set<String>? = nil) {
        func route(_ method: HTTPMethod, _ pattern: String, _ handler: @escaping HTTPHandler) {
            router.add(method, pattern) { request, responder in
                if let allowedOrigins, let origin = request.headers["Origin"], !allowedOrigins.contains(origin) {
                    return responder.respond(.error(.forbidden, "origin \(origin) is not allowed"))
                }
                handler(request, responder)
            }
        }

        route(.GET, "/api/boards") { request, responder in
            guard let token = bearerToken(request, responder) else { return }
            hub.listBoards { result in
                responder.respond(result.map { summaries in
                    // Only the boards this token may see.
                    let access = hub.access
                    let visible = summaries.filter { access.role(token: token, board: $0.id) != nil }
                    return json(.ok, BoardList(boards: visible))
                })
            }
        }

        route(.POST, "/api/boards") { request, responder in
            switch WireFormat.decodeNewBoard(Data(request.body)) {
            case .failure(let error):
                responder.respond(.error(.badRequest, error.message))
            case .success(let board):
                // Creating a board is an owner's act, like locking one.
                guard let role = authorize(request, board: board.id, hub: hub, responder) else { return }
                guard role.canLock else { return responder.respond(.error(.forbidden, "only an owner may create boards")) }
                hub.createBoard(board) { result in responder.respond(result.map { json(.created, $0) }) }
            }
        }

        route(.GET, "/api/boards/{id}") { request, responder in
            let board = request.pathParameters["id"] ?? ""
            guard authorize(request, board: board, hub: hub, responder) != nil else { return }
            hub.document(board: board) { result in responder.respond(result.map { json(.ok, $0) }) }
        }

        route(.GET, "/api/boards/{id}/ops") { request, responder in
            let board = request.pathParameters["id"] ?? ""
            guard authorize(request, board: board, hub: hub, responder) != nil else { return }
            let sinceText = request.queryItems["since"] ?? "0"
            guard let since = Int(sinceText), since >= 0 else {
                return responder.respond(.error(.badRequest, "since must be a seq (a whole number ≥ 0), not \"\(sinceText)\""))
            }
            hub.events(board: board, since: since) { result in
                responder.respond(result.map { json(.ok, EventPage(events: $0)) })
            }
        }

        route(.POST, "/api/boards/{id}/ops") { request, responder in
            let board = request.pathParameters["id"] ?? ""
            guard let role = authorize(request, board: board, hub: hub, responder) else { return }
            switch WireFormat.decodeClientMessage(Data(request.body)) {
            case .message(.operation(let operation)):
                hub.submit(
                    operation, board: board, role: role, caller: request.remoteAddress?.host ?? "local", bytes: request.body.count
                ) { result in
                    responder.respond(result.map { outcome in
                        let message = ServerMessage(outcome)
                        var response = json(status(of: message), message)
                        // A whole second always refills at least one token of any rate.
                        if response.status == .tooManyRequests { response.headers.set("Retry-After", "1") }
                        return response
                    })
                }
            case .rejected(let rejected):
                responder.respond(json(.badRequest, ServerMessage.rejected(rejected)))
            case .error(let error):
                responder.respond(json(.badRequest, ServerMessage.error(error)))
            case .message:
                responder.respond(json(.badRequest, ServerMessage.error(ErrorMessage(
                    code: .invalid, message: "the body must be one operation (move, insert, delete, update, collection.add, collection.remove, lock)"))))
            }
        }
    }

    /// The role the request's `Authorization: Bearer` token grants on `board`, or nil after answering 403.
    private static func authorize(_ request: HTTPRequest, board: String, hub: Hub, _ responder: HTTPResponder) -> Role? {
        guard let token = bearerToken(request, responder) else { return nil }
        guard let role = hub.role(token: token, board: board) else {
            responder.respond(.error(.forbidden, "the token is not valid for board \"\(board)\""))
            return nil
        }
        return role
    }

    /// The token of `Authorization: Bearer <token>` (`.some(nil)` without the header), or nil
    /// after answering 400 for a header of another form.
    static func bearerToken(_ request: HTTPRequest, _ responder: HTTPResponder) -> String?? {
        guard let header = request.headers["Authorization"] else { return .some(nil) }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else {
            responder.respond(.error(.badRequest, "Authorization must be \"Bearer <token>\""))
            return nil
        }
        return .some(String(parts[1]).trimmingOWS())
    }

    /// The status of an operation's answer (docs/protocol.md#8-http-api).
    static func status(of message: ServerMessage) -> HTTPStatus {
        guard case .rejected(let rejected) = message else { return .ok }
        switch rejected.code {
        case .invalid: return .badRequest
        case .forbidden: return .forbidden
        case .gone, .busy: return .conflict
        case .locked: return .locked
        case .rateLimited: return .tooManyRequests
        case .unavailable: return .serviceUnavailable
        }
    }

    private static func json(_ status: HTTPStatus, _ value: some Encodable) -> HTTPResponse {
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
