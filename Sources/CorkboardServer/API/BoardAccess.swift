import CorkboardHub
import CorkboardModel
import CorkboardWire
import Foundation
import HTTP

/// What a board route's access established: the board, the caller's role on it, who they are
/// (whom an operation is by) and the token they showed (nil without one, in open mode).
struct BoardAccess: Sendable {
    let board: String
    let role: Role
    let holder: TokenHolder
    let token: String?
}

/// What `POST /api/boards`' access established: the board its body describes, and the
/// caller's access to it.
struct NewBoardAccess: Sendable {
    let board: Board
    let access: BoardAccess
}

extension RouteAccess where Grant == BoardAccess {
    /// Any role on the board the path's `{id}` names. A token without access to it gets 403
    /// whether or not the board exists (authorisation comes before existence).
    static var boardMember: RouteAccess {
        RouteAccess { request, hub in BoardAccess.establish(request, board: request.pathParameters["id"] ?? "", hub: hub) }
    }

    /// An owner of the board the path's `{id}` names; another role on it gets 403 `refusal`.
    static func boardOwner(refusal: String) -> RouteAccess {
        RouteAccess { request, hub in
            BoardAccess.establish(request, board: request.pathParameters["id"] ?? "", hub: hub).flatMap { access in
                access.role.canLock ? .granted(access) : .refused(.error(.forbidden, refusal))
            }
        }
    }
}

extension RouteAccess where Grant == NewBoardAccess {
    /// An owner of the board the body of `POST /api/boards` describes: the query (the route
    /// takes none) and the body are read first (400), since the body names the board; another
    /// role gets 403 `refusal`.
    static func ownerOfNewBoard(refusal: String) -> RouteAccess {
        RouteAccess { request, hub in
            let route = "\(request.method.rawValue) \(request.path)"
            if case .failure(let error) = QueryParameters.parse(request.queryPairs, accepting: [], route: route) {
                return .refused(.error(.badRequest, error.message))
            }
            switch WireFormat.decodeNewBoard(Data(request.body)) {
            case .failure(let error):
                return .refused(.error(.badRequest, error.message))
            case .success(let board):
                return BoardAccess.establish(request, board: board.id, hub: hub).flatMap { access in
                    access.role.canLock ? .granted(NewBoardAccess(board: board, access: access)) : .refused(.error(.forbidden, refusal))
                }
            }
        }
    }
}

extension BoardAccess {
    /// The caller's access to `board`: 401 without a valid token, 403 with one not valid for it.
    static func establish(_ request: HTTPRequest, board: String, hub: Hub) -> AccessOutcome<BoardAccess> {
        HTTPAuthorization.caller(request, hub: hub).flatMap { caller in
            guard let role = caller.holder.role(on: board) else {
                return .refused(.error(.forbidden, "the token is not valid for board \"\(board)\""))
            }
            return .granted(BoardAccess(board: board, role: role, holder: caller.holder, token: caller.token))
        }
    }
}
