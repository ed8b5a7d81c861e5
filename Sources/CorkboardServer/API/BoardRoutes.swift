import CorkboardHub
import CorkboardModel
import CorkboardWire
import Foundation
import HTTP

/// `/api/boards` and `/api/boards/{id}` (docs/protocol.md#8-http-api): list, create, read,
/// rename and delete boards, with the same hub and resolver as the WebSocket.
enum BoardRoutes {
    static func add(using route: APIRoute, hub: Hub) {
        route(.GET, "/api/boards", list(hub: hub))
        route(.POST, "/api/boards", create(hub: hub))
        route(.GET, "/api/boards/{id}", read(hub: hub, lengths: DocumentLengths()))
        route(.DELETE, "/api/boards/{id}", delete(hub: hub))
        route(.PATCH, "/api/boards/{id}", rename(hub: hub))
    }

    /// The boards the token may see, in pages by id.
    static func list(hub: Hub) -> HTTPHandler {
        { request, responder in
            guard let page = ListPage.read(request, responder) else { return }
            guard let holder = HTTPAuthorization.holder(request, hub: hub, responder) else { return }
            hub.listBoards { result in
                responder.respond(
                    result.map { summaries in
                        let visible = page.slice(summaries.filter { holder.role(on: $0.id) != nil }, key: \.id)
                        return BoardAPI.json(.ok, BoardList(boards: visible.entries, next: visible.next))
                    })
            }
        }
    }

    /// A new board from its document; an owner's act, like locking one.
    static func create(hub: Hub) -> HTTPHandler {
        { request, responder in
            guard QueryParameters.read(request, responder) != nil else { return }
            switch WireFormat.decodeNewBoard(Data(request.body)) {
            case .failure(let error):
                responder.respond(.error(.badRequest, error.message))
            case .success(let board):
                guard let role = BoardAPI.authorize(request, board: board.id, hub: hub, responder) else { return }
                guard role.canLock else { return responder.respond(.error(.forbidden, "only an owner may create boards")) }
                hub.createBoard(board) { result in responder.respond(result.map { BoardAPI.json(.created, $0) }) }
            }
        }
    }

    /// The board's document, as in `welcome`.
    static func read(hub: Hub, lengths: DocumentLengths) -> HTTPHandler {
        { request, responder in
            guard QueryParameters.read(request, responder) != nil else { return }
            let board = request.pathParameters["id"] ?? ""
            guard BoardAPI.authorize(request, board: board, hub: hub, responder) != nil else { return }
            hub.document(board: board) { result in
                // Off the board's queue: counting a large board's bytes takes a while, and
                // the board's members should not wait for it.
                DispatchQueue.global().async {
                    responder.respond(result.map { BoardAPI.documentResponse($0, lengths: lengths) })
                }
            }
        }
    }

    /// A new title: an operation of the board's log (`BoardRename`), so members see it live.
    static func rename(hub: Hub) -> HTTPHandler {
        { request, responder in
            guard QueryParameters.read(request, responder) != nil else { return }
            let board = request.pathParameters["id"] ?? ""
            guard let (role, holder) = BoardAPI.authorizeHolder(request, board: board, hub: hub, responder) else { return }
            let title: String
            switch WireFormat.decodeBoardRename(Data(request.body)) {
            case .success(let decoded): title = decoded
            case .failure(let error): return responder.respond(.error(.badRequest, error.message))
            }
            // The resolver refuses it too; said here in the API's words, as for DELETE.
            guard role.canLock else { return responder.respond(.error(.forbidden, "only an owner may rename a board")) }
            let caller = request.clientAddress ?? "local"
            hub.submit(
                BoardRename.request(title: title), board: board, role: role, author: holder.httpAuthor, caller: caller,
                bytes: request.body.count
            ) { result in
                responder.respond(
                    result.map { outcome in
                        RateLimitFields.added(to: BoardRename.response(to: outcome, board: board, title: title), hub: hub, caller: caller)
                    })
            }
        }
    }

    /// The board and its log, gone; an owner's act.
    static func delete(hub: Hub) -> HTTPHandler {
        { request, responder in
            guard QueryParameters.read(request, responder) != nil else { return }
            let board = request.pathParameters["id"] ?? ""
            guard let role = BoardAPI.authorize(request, board: board, hub: hub, responder) else { return }
            guard role.canLock else { return responder.respond(.error(.forbidden, "only an owner may delete a board")) }
            hub.deleteBoard(board) { result in responder.respond(result.map { HTTPResponse(status: .noContent) }) }
        }
    }
}
