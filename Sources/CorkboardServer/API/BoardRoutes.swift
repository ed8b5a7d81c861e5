import CorkboardHub
import CorkboardModel
import CorkboardWire
import Foundation
import HTTP

/// `/api/boards` and `/api/boards/{id}` (docs/protocol.md#8-http-api): list, create, read,
/// rename and delete boards, with the same hub and resolver as the WebSocket.
enum BoardRoutes {
    static func add(to routes: inout APIRouteTable, hub: Hub) {
        routes.add(.GET, "/api/boards", .holder, list(hub: hub))
        routes.add(.POST, "/api/boards", .ownerOfNewBoard(refusal: "only an owner may create boards"), create(hub: hub))
        routes.add(.GET, "/api/boards/{id}", .boardMember, read(hub: hub, lengths: DocumentLengths()))
        routes.add(.DELETE, "/api/boards/{id}", .boardOwner(refusal: "only an owner may delete a board"), delete(hub: hub))
        // The resolver refuses a rename by another role too; the route says it in the API's words.
        routes.add(.PATCH, "/api/boards/{id}", .boardOwner(refusal: "only an owner may rename a board"), rename(hub: hub))
    }

    /// The boards the token may see, in pages by id.
    static func list(hub: Hub) -> APIHandler<TokenHolder> {
        { request, holder, responder in
            guard let page = ListPage.read(request, responder) else { return }
            hub.listBoards { result in
                responder.respond(
                    result.map { summaries in
                        let visible = page.slice(summaries.filter { holder.role(on: $0.id) != nil }, key: \.id)
                        return BoardAPI.json(.ok, BoardList(boards: visible.entries, next: visible.next))
                    })
            }
        }
    }

    /// A new board from its document (read, with the query, by the route's access: the body
    /// names the board); an owner's act, like locking one.
    static func create(hub: Hub) -> APIHandler<NewBoardAccess> {
        { _, new, responder in
            hub.createBoard(new.board) { result in responder.respond(result.map { BoardAPI.json(.created, $0) }) }
        }
    }

    /// The board's document, as in `welcome`.
    static func read(hub: Hub, lengths: DocumentLengths) -> APIHandler<BoardAccess> {
        { request, access, responder in
            guard QueryParameters.read(request, responder) != nil else { return }
            hub.document(board: access.board) { result in
                // Off the board's queue: counting a large board's bytes takes a while, and
                // the board's members should not wait for it.
                DispatchQueue.global().async {
                    responder.respond(result.map { BoardAPI.documentResponse($0, lengths: lengths) })
                }
            }
        }
    }

    /// A new title: an operation of the board's log (`BoardRename`), so members see it live.
    static func rename(hub: Hub) -> APIHandler<BoardAccess> {
        { request, access, responder in
            guard QueryParameters.read(request, responder) != nil else { return }
            let title: String
            switch WireFormat.decodeBoardRename(Data(request.body)) {
            case .success(let decoded): title = decoded
            case .failure(let error): return responder.respond(.error(.badRequest, error.message))
            }
            let board = access.board
            let caller = request.clientAddress ?? "local"
            hub.submit(
                BoardRename.request(title: title), board: board, role: access.role, author: access.holder.httpAuthor, caller: caller,
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
    static func delete(hub: Hub) -> APIHandler<BoardAccess> {
        { request, access, responder in
            guard QueryParameters.read(request, responder) != nil else { return }
            hub.deleteBoard(access.board) { result in responder.respond(result.map { HTTPResponse(status: .noContent) }) }
        }
    }
}
