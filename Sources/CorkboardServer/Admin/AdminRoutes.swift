import CorkboardHub
import CorkboardModel
import Foundation
import HTTP

/// `/api/admin` (docs/protocol.md#admin): what an operator's page (`/admin`) reads and does on
/// the node that answers: who may use it, the boards open here and who is on them, the other
/// nodes alive, and draining the node. Owners of every board only, as `/api/revocations`: the
/// overview names every board and every person on them, and a drain sends everyone here away.
enum AdminRoutes {
    /// Members listed per board in the overview (`memberCount` says how many there are).
    static let membersPerBoard = 1000

    static func add(to routes: inout APIRouteTable, hub: Hub, node: NodeStatus) {
        // Asked first by the page, so that it never makes a request it would be refused: a
        // 401 or 403 is what a browser logs as an error, and the page has to say why instead.
        // Open: it judges the token itself, and answers 200 whatever it finds.
        routes.add(.GET, "/api/admin/access", .open) { request, _, responder in
            guard QueryParameters.read(request, responder) != nil else { return }
            responder.respond(BoardAPI.json(.ok, access(request, hub: hub)))
        }

        routes.add(.GET, "/api/admin/overview", administrator) { request, _, responder in
            guard let page = ListPage.read(request, responder) else { return }
            hub.onlineBoards { boards in
                responder.respond(BoardAPI.json(.ok, overview(boards, page: page, hub: hub, node: node)))
            }
        }

        routes.add(.POST, "/api/admin/drain", administrator) { request, _, responder in
            guard QueryParameters.read(request, responder) != nil else { return }
            node.drain(hub: hub)
            responder.respond(BoardAPI.json(.ok, node.json(hub: hub)))
        }

        routes.add(.DELETE, "/api/admin/drain", administrator) { request, _, responder in
            guard QueryParameters.read(request, responder) != nil else { return }
            guard !node.readiness.isShuttingDown else {
                return responder.respond(.error(.conflict, "the node is shutting down (SIGTERM): its drain cannot be taken back"))
            }
            _ = node.readiness.takeDrainBack()
            responder.respond(BoardAPI.json(.ok, node.json(hub: hub)))
        }
    }

    /// `{"administrator": Bool, "message": "…"}`: whether the request's token may use the admin
    /// API, and if not why, in the words a 401 or 403 would have.
    static func access(_ request: HTTPRequest, hub: Hub) -> JSONValue {
        // A header of another form than Bearer proves nothing: here that is no token, not a 400.
        let token = request.headers["Authorization"].flatMap { header -> String? in
            let parts = header.split(separator: " ", maxSplits: 1)
            guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
            return String(parts[1]).trimmingOWS()
        }
        switch hub.access.judge(token: token, checkingLifetime: true) {
        case .holder(let holder) where holder.isAdministrator:
            return .object(["administrator": .bool(true)])
        case .holder:
            return .object(["administrator": .bool(false), "message": .string(refusal)])
        case .missing:
            return .object(["administrator": .bool(false), "message": "a token is needed: Authorization: Bearer <token>"])
        case .refused(let reason):
            return .object(["administrator": .bool(false), "message": .string(reason)])
        }
    }

    static let refusal = "only an owner of every board (\"boards\": \"*\") may use the admin page"

    /// The overview: this node, the other nodes alive, and one page of the boards open here.
    static func overview(_ boards: [OnlineBoard], page: ListPage, hub: Hub, node: NodeStatus) -> JSONValue {
        let shown = page.slice(boards) { $0.board }
        let here = NodeStatus.id(hub)
        var answer: [String: JSONValue] = [
            "node": node.json(hub: hub),
            "nodes": .array(hub.otherNodes.map { .object(["id": .string($0)]) }),
            "boards": .array(shown.entries.map { board($0, here: here) }),
        ]
        if let next = shown.next { answer["next"] = .string(next) }
        return .object(answer)
    }

    private static func board(_ board: OnlineBoard, here: String) -> JSONValue {
        .object([
            "id": .string(board.board),
            "memberCount": .number(Double(board.members.count)),
            "members": .array(board.members.prefix(membersPerBoard).map { member($0, here: here) }),
        ])
    }

    private static func member(_ member: OnlineMember, here: String) -> JSONValue {
        var fields: [String: JSONValue] = [
            "client": .string(member.client), "name": .string(member.name), "node": .string(member.node ?? here),
            "observes": .bool(member.observes),
        ]
        if let user = member.user { fields["user"] = .string(user) }
        if let role = member.role { fields["role"] = .string(role.rawValue) }
        return .object(fields)
    }

    /// An owner of every board: the overview names every board and every person on them, and a
    /// drain sends everyone here away.
    private static let administrator = RouteAccess.administrator(refusal: refusal)
}
